import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isAppError } from '@switchyard/errors';
import { planPosts, splitMessage } from './build-posts';

describe('splitting and props limits', () => {
  it('when a message is cut, then parts hold at most the limit in runes and join back to the original (surrogate pairs intact)', () => {
    const message = `${'a'.repeat(5)}${'😀'.repeat(7)}`;
    const parts = splitMessage(message, 4);
    assert.deepEqual(parts, ['aaaa', 'a😀😀😀', '😀😀😀😀']);
    assert.equal(parts.join(''), message);
    assert.deepEqual(splitMessage('', 4), ['']);
    assert.deepEqual(splitMessage('abcd', 4), ['abcd']);
  });

  it('when the base props are over the limit, then 400 web.incoming_webhook.split_props_length.app_error', () => {
    assert.throws(() => planPosts('x', { big: 'y'.repeat(200) }, null, 100), (e: unknown) => isAppError(e) && e.id === 'web.incoming_webhook.split_props_length.app_error' && e.statusCode === 400);
  });

  it('when attachments do not fit beside each other, then extra attachments-only posts follow; one oversized attachment has its text cut', () => {
    const plans = planPosts('hello', { a: 1 }, [{ text: 'x'.repeat(60) }, { text: 'y'.repeat(60) }], 120);
    assert.equal(plans.length, 2);
    assert.equal(plans[0]?.message, 'hello');
    assert.equal(plans[1]?.message, '');
    assert.equal((plans[1]?.props.attachments as unknown[]).length, 1);
    const cut = planPosts('hello', { a: 1 }, [{ text: 'z'.repeat(500) }], 120);
    assert.equal(cut.length, 1);
    assert.ok(JSON.stringify(cut[0]?.props).length <= 120);
    assert.match(String((cut[0]?.props.attachments as { text: string }[])[0]?.text), /^z+$/);
  });
});
