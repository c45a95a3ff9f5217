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

    const observed = async (): Promise<{ events: ClientEvents; settle: (...users: string[]) => Promise<Seen[]> }> => {
      const s = await setup();
      cleanups.push(() => s.cleanup());
      const seen: Seen[] = [];
      const sub = await s.bus.subscribe({ groupId: `client-events-contract-${randomBytes(4).toString('hex')}`, topics: [Topics.realtimeEvents], handler: async (m) => void seen.push({ key: m.key, value: m.value as Seen['value'] }) });
      cleanups.unshift(() => sub.stop());
      /**
       * Sends one sentinel event per user and waits until each is seen. A user's events keep their order
       * (one key), so every event sent before the sentinel, a late duplicate included, has arrived by then:
       * the caller counts exactly. Returns what was seen, without the sentinels.
       */
      const settle = async (...users: string[]): Promise<Seen[]> => {
        const sentinels = new Set<string>();
        for (const user of users) {
          const post = aPost(user, 'sentinel');
          sentinels.add(post.id);
          await s.events.ephemeralPost(user, post);
        }
        const isSentinel = (e: Seen): boolean => sentinels.has((e.value.payload.post as { id?: string } | undefined)?.id ?? '');
        const deadline = Date.now() + 60_000;
        while (seen.filter(isSentinel).length < users.length) {
          if (Date.now() > deadline) throw new Error(`saw ${seen.filter(isSentinel).length} of ${users.length} sentinel events`);
          await new Promise((r) => setTimeout(r, 10));
        }
        return seen.filter((e) => !isSentinel(e));
      };
      return { events: s.events, settle };
    };

    it('when an ephemeral post is sent, then one ephemeral.post keyed by the user carries it, valid for realtime', async () => {
      const { events, settle } = await observed();
      const userId = newId();
      const post = aPost(userId, 'only you');
      await events.ephemeralPost(userId, post);
      const seen = await settle(userId);
      assert.equal(seen.length, 1, 'exactly one event');
      const [event] = seen;
      assert.equal(event?.key, userId);
      assert.equal(event?.value.type, 'ephemeral.post');
      assert.equal(ephemeralPostPayloadSchema.validate(event?.value.payload).error, undefined);
      assert.deepEqual(event?.value.payload, { user_id: userId, post });
    });

    it('when a dialog is opened, then one dialog.open keyed by the user carries it, valid for realtime', async () => {
      const { events, settle } = await observed();
      const userId = newId();
      const dialog = { trigger_id: newId(), url: 'https://integration.example/dialog', dialog: { callback_id: 'c', title: 'T', elements: [] } };
      await events.openDialog(userId, dialog);
      const seen = await settle(userId);
      assert.equal(seen.length, 1, 'exactly one event');
      const [event] = seen;
      assert.equal(event?.key, userId);
      assert.equal(event?.value.type, 'dialog.open');
      assert.equal(openDialogPayloadSchema.validate(event?.value.payload).error, undefined);
      assert.deepEqual(event?.value.payload, { user_id: userId, dialog });
    });

    it("when two users get several events, then each event has its own id and each user's events keep their order", async () => {
      const { events, settle } = await observed();
      const [a, b] = [newId(), newId()];
      for (let i = 0; i < 5; i += 1) {
        await events.ephemeralPost(a, aPost(a, `a${i}`));
        await events.ephemeralPost(b, aPost(b, `b${i}`));
      }
      const seen = await settle(a, b);
      assert.equal(seen.length, 10, 'exactly one event per call');
      const messagesOf = (user: string) => seen.filter((e) => e.key === user).map((e) => (e.value.payload.post as { message: string }).message);
      assert.deepEqual(messagesOf(a), ['a0', 'a1', 'a2', 'a3', 'a4']);
      assert.deepEqual(messagesOf(b), ['b0', 'b1', 'b2', 'b3', 'b4']);
      assert.ok(seen.every((e) => (e.value.payload as { user_id: string }).user_id === e.key));
      assert.equal(new Set(seen.map((e) => e.value.id)).size, 10);
    });
  });
}
