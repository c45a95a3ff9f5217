import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { ephemeralPostPayloadSchema, openDialogPayloadSchema, Topics, type WirePost } from '@switchyard/contracts';
import type { EventBus } from '@switchyard/event-bus';
import { newId } from '@switchyard/ids';
import type { ClientEvents } from '../../domain/ports';

export interface ClientEventsSetup {
  readonly events: ClientEvents;
  /** The bus realtime reads (to observe what was published). */
  readonly bus: EventBus;
  cleanup(): Promise<void>;
}

interface Seen {
  readonly key: string;
  readonly value: { readonly type: string; readonly id: string; readonly payload: Record<string, unknown> };
}

function aPost(userId: string, message: string): WirePost {
  const now = Date.now();
  return {
    id: newId(), create_at: now, update_at: now, edit_at: 0, delete_at: 0, is_pinned: false, user_id: userId, channel_id: newId(), root_id: '', original_id: '',
    message, type: 'system_ephemeral', props: { from_webhook: 'true' }, hashtags: '', file_ids: [], pending_post_id: '', reply_count: 0, last_reply_at: 0, participants: null,
  };
}

/**
 * What every ClientEvents adapter must do, observed where realtime reads it (realtime.events): one
 * event per call, keyed by the target user (so each user's events stay in order on one partition),
 * with the payload realtime validates, and nothing for anyone else.
 */
export function clientEventsContract(name: string, setup: () => Promise<ClientEventsSetup>): void {
  describe(`ClientEvents (${name})`, { timeout: 120_000 }, () => {
    const cleanups: (() => Promise<void>)[] = [];
    after(async () => {
      for (const c of cleanups) await c();
    });

    const observed = async (): Promise<{ events: ClientEvents; seen: Seen[]; waitFor: (n: number) => Promise<Seen[]> }> => {
      const s = await setup();
      cleanups.push(() => s.cleanup());
      const seen: Seen[] = [];
      const sub = await s.bus.subscribe({ groupId: `client-events-contract-${randomBytes(4).toString('hex')}`, topics: [Topics.realtimeEvents], handler: async (m) => void seen.push({ key: m.key, value: m.value as Seen['value'] }) });
      cleanups.unshift(() => sub.stop());
      const waitFor = async (n: number): Promise<Seen[]> => {
        const deadline = Date.now() + 60_000;
        while (seen.length < n) {
          if (Date.now() > deadline) throw new Error(`saw ${seen.length} of ${n} events`);
          await new Promise((r) => setTimeout(r, 10));
        }
        return seen;
      };
      return { events: s.events, seen, waitFor };
    };

    it('when an ephemeral post is sent, then one ephemeral.post keyed by the user carries it, valid for realtime', async () => {
      const { events, waitFor } = await observed();
      const userId = newId();
      const post = aPost(userId, 'only you');
      await events.ephemeralPost(userId, post);
      const [event] = await waitFor(1);
      assert.equal(event?.key, userId);
      assert.equal(event?.value.type, 'ephemeral.post');
      assert.equal(ephemeralPostPayloadSchema.validate(event?.value.payload).error, undefined);
      assert.deepEqual(event?.value.payload, { user_id: userId, post });
    });

    it('when a dialog is opened, then one dialog.open keyed by the user carries it, valid for realtime', async () => {
      const { events, waitFor } = await observed();
      const userId = newId();
      const dialog = { trigger_id: newId(), url: 'https://integration.example/dialog', dialog: { callback_id: 'c', title: 'T', elements: [] } };
      await events.openDialog(userId, dialog);
      const [event] = await waitFor(1);
      assert.equal(event?.key, userId);
      assert.equal(event?.value.type, 'dialog.open');
      assert.equal(openDialogPayloadSchema.validate(event?.value.payload).error, undefined);
      assert.deepEqual(event?.value.payload, { user_id: userId, dialog });
    });

    it("when two users get several events, then each event has its own id and each user's events keep their order", async () => {
      const { events, waitFor } = await observed();
      const [a, b] = [newId(), newId()];
      for (let i = 0; i < 5; i += 1) {
        await events.ephemeralPost(a, aPost(a, `a${i}`));
        await events.ephemeralPost(b, aPost(b, `b${i}`));
      }
      const seen = await waitFor(10);
      const messagesOf = (user: string) => seen.filter((e) => e.key === user).map((e) => (e.value.payload.post as { message: string }).message);
      assert.deepEqual(messagesOf(a), ['a0', 'a1', 'a2', 'a3', 'a4']);
      assert.deepEqual(messagesOf(b), ['b0', 'b1', 'b2', 'b3', 'b4']);
      assert.ok(seen.every((e) => (e.value.payload as { user_id: string }).user_id === e.key));
      assert.equal(new Set(seen.map((e) => e.value.id)).size, 10);
    });
  });
}
