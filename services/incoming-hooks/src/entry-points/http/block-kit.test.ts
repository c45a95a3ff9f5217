import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isAppError } from '@switchyard/errors';
import { MAX_BLOCKS, normalizeBlocks } from './block-kit';

const parseError = (detail: RegExp) => (error: unknown): boolean => isAppError(error) && error.statusCode === 400 && error.id === 'model.incoming_hook.parse_data.app_error' && detail.test(error.detailedError);

test('when known blocks are sent, then they are kept without unknown keys; unknown types are dropped', () => {
  const blocks = normalizeBlocks([
    { type: 'header', text: { type: 'plain_text', text: 'Deploy' }, extra: 1 },
    { type: 'section', text: { type: 'mrkdwn', text: '*done*' }, fields: [{ type: 'mrkdwn', text: '*Env*\nprod' }], accessory: { type: 'button', text: { type: 'plain_text', text: 'Open' }, url: 'https://ci.example/1' } },
    { type: 'divider' },
    { type: 'context', elements: [{ type: 'mrkdwn', text: 'by ci' }, { type: 'image', image_url: 'https://ci.example/i.png', alt_text: 'ci' }] },
    { type: 'image', image_url: 'https://ci.example/graph.png', alt_text: 'graph' },
    { type: 'actions', elements: [{ type: 'button', text: { type: 'plain_text', text: 'Logs' }, url: 'https://ci.example/logs' }, { type: 'static_select', options: [] }] },
    { type: 'input', element: {} },
    { type: 'video', title: {} },
  ]);
  assert.deepEqual(blocks?.map((b) => b.type), ['header', 'section', 'divider', 'context', 'image', 'actions']);
  assert.equal((blocks?.[0] as { extra?: unknown }).extra, undefined);
  assert.deepEqual((blocks?.[5] as { elements: unknown[] }).elements, [{ type: 'button', text: { type: 'plain_text', text: 'Logs' }, url: 'https://ci.example/logs' }]);
  assert.equal(normalizeBlocks([{ type: 'input' }]), null);
  assert.equal(normalizeBlocks(undefined), null);
});

test('when a known block breaks its rules, then 400 naming the block; more than 50 blocks or not an array is 400', () => {
  assert.throws(() => normalizeBlocks([{ type: 'divider' }, { type: 'image', image_url: 'javascript:alert(1)', alt_text: 'x' }]), parseError(/blocks\[1\] \(image\)/));
  assert.throws(() => normalizeBlocks([{ type: 'header', text: { type: 'mrkdwn', text: 'x' } }]), parseError(/blocks\[0\] \(header\)/));
  assert.throws(() => normalizeBlocks([{ type: 'section' }]), parseError(/section/));
  assert.throws(() => normalizeBlocks([{ type: 'actions', elements: [{ type: 'button', text: { type: 'plain_text', text: 'x' }, url: 'data:text/html,x' }] }]), parseError(/actions/));
  assert.throws(() => normalizeBlocks(Array.from({ length: MAX_BLOCKS + 1 }, () => ({ type: 'divider' }))), parseError(/at most 50/));
  assert.throws(() => normalizeBlocks({ type: 'divider' }), parseError(/must be an array/));
  assert.throws(() => normalizeBlocks(['divider']), parseError(/blocks\[0\]/));
});
