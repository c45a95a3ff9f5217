import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isAppError } from '@switchyard/errors';
import { normaliseAttachments, stringifyFieldValue, stripIntegrations } from './attachments';

describe('attachment rules', () => {
  it('when footers are exactly 300 runes or longer, then only longer ones are cut to 300 plus an ellipsis (runes, not UTF-16 units)', () => {
    const exact = '😀'.repeat(300);
    const out = normaliseAttachments({ attachments: [{ footer: exact }, { footer: `${exact}x` }] });
    const [a, b] = out.attachments as Record<string, unknown>[];
    assert.equal(a?.footer, exact);
    assert.equal(b?.footer, `${exact}…`);
  });

  it('when field values are of any type, then they become strings', () => {
    assert.equal(stringifyFieldValue(1.5), '1.5');
    assert.equal(stringifyFieldValue(false), 'false');
    assert.equal(stringifyFieldValue(null), '');
    assert.equal(stringifyFieldValue({ a: 1 }), '{"a":1}');
  });

  it('when props have no attachments, then they are unchanged; a non-array is a 400', () => {
    assert.deepEqual(normaliseAttachments({ a: 1 }), { a: 1 });
    assert.throws(() => normaliseAttachments({ attachments: {} }), (e: unknown) => isAppError(e) && e.statusCode === 400 && e.id === 'api.context.invalid_body_param.app_error');
  });

  it('when integrations are stripped, then the stored props object is not mutated', () => {
    const props = normaliseAttachments({ attachments: [{ actions: [{ id: 'x', name: 'n', integration: { url: 'u', context: { s: 1 } } }] }] });
    const stripped = stripIntegrations(props);
    assert.deepEqual(((stripped.attachments as Record<string, unknown>[])[0]?.actions as unknown[])[0], { id: 'x', name: 'n' });
    assert.ok(JSON.stringify(props).includes('integration'));
  });
});
