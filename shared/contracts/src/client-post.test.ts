import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clientPost } from './client-post';
import type { WirePost } from './posts-model';

test('when a stored post carries a hook key or action integrations, then the client form has neither', () => {
  const post = {
    id: 'p',
    props: { from_webhook: 'true', incoming_webhook_id: 'secret-hook-key', attachments: [{ actions: [{ id: 'a', integration: { url: 'http://x', context: { s: 1 } } }] }] },
    incoming_hook_id: 'secret-hook-key',
    pending_events: [],
    has_reactions: false,
  } as unknown as WirePost;
  const client = clientPost(post);
  assert.ok(!JSON.stringify(client).includes('secret-hook-key'));
  assert.ok(!JSON.stringify(client).includes('integration'));
  assert.deepEqual((client.props as Record<string, unknown>).from_webhook, 'true');
  assert.equal('pending_events' in client, false);
  assert.equal('has_reactions' in client, false);
});
