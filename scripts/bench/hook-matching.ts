/**
 * Deciding which outgoing hooks fire, per event, when none matches: 1,000 hooks in one team (channel
 * hooks of other channels and trigger-word hooks that hear `posted`), events of that team. In process, no
 * I/O: the dispatcher's handlers over the cached hooks (CachingHookRepository over the memory adapter).
 * Figures: µs per `post.created` (the reference's path) and per `reaction.added` (event types, indexed), then
 * the same with 1,000 bot hooks of other teams' bots hearing both (none matches: other team, other bot's DMs).
 */
import { newId } from '@switchyard/ids';
import { createSilentLogger } from '@switchyard/logger';
import { MutableConfigView } from '@switchyard/system-config';
import { CachingHookRepository } from '../../services/outgoing-dispatch/src/adapters/cache/caching-hook-repository';
import { MemoryOutgoingHookRepository } from '../../services/outgoing-dispatch/src/adapters/memory/outgoing-hook.repository.memory';
import type { OutgoingHook } from '../../services/outgoing-dispatch/src/domain/entities';
import type { Deps } from '../../services/outgoing-dispatch/src/domain/ports';
import { hookEventsHandler } from '../../services/outgoing-dispatch/src/entry-points/kafka/hook-events.consumer';
import { postCreatedHandler } from '../../services/outgoing-dispatch/src/entry-points/kafka/post-created.consumer';

const HOOKS = 1000;
const EVENTS = 200_000;

function hook(teamId: string, i: number): OutgoingHook {
  return {
    id: newId(), token: newId(), createAt: i + 1, updateAt: i + 1, deleteAt: 0, creatorId: newId(), channelId: i % 2 === 0 ? newId() : '', teamId,
    triggerWords: [`word${i}`], triggerWhen: i % 3 === 0 ? 1 : 0, callbackUrls: ['http://127.0.0.1:9/x'], displayName: '', description: '', contentType: '',
    username: '', iconUrl: '', signingSecret: 'whsec_x', previousSigningSecret: '', previousSecretExpiresAt: 0, disabledAt: 0,
    signingAlgorithm: 'hmac-sha256', signingKey: '', previousSigningKey: '', eventTypes: ['posted'], botUserId: '',
  };
}

async function perEventUs(handle: (message: never) => Promise<void>, message: unknown): Promise<number> {
  for (let i = 0; i < 10_000; i += 1) await handle(message as never);
  const start = process.hrtime.bigint();
  for (let i = 0; i < EVENTS; i += 1) await handle(message as never);
  return Number(process.hrtime.bigint() - start) / 1000 / EVENTS;
}

function botHook(i: number): OutgoingHook {
  return { ...hook(newId(), i), channelId: '', triggerWords: [], botUserId: newId(), eventTypes: ['posted', 'reaction_added'] };
}

export async function run(): Promise<{ postedUs: number; reactionUs: number; botPostedUs: number; botReactionUs: number }> {
  const first = await measure(false);
  const withBots = await measure(true);
  process.stdout.write(`   ${HOOKS} hooks in the team, none matching: post.created ${first.postedUs.toFixed(2)} µs/event, reaction.added ${first.reactionUs.toFixed(2)} µs/event\n`);
  process.stdout.write(`   plus ${HOOKS} bot hooks of other teams, none matching: post.created ${withBots.postedUs.toFixed(2)} µs/event, reaction.added ${withBots.reactionUs.toFixed(2)} µs/event\n`);
  return { ...first, botPostedUs: withBots.postedUs, botReactionUs: withBots.reactionUs };
}

async function measure(bots: boolean): Promise<{ postedUs: number; reactionUs: number }> {
  const teamId = newId();
  const store = new MemoryOutgoingHookRepository();
  for (let i = 0; i < HOOKS; i += 1) await store.insert(hook(teamId, i));
  if (bots) for (let i = 0; i < HOOKS; i += 1) await store.insert(botHook(i));
  const hooks = new CachingHookRepository(store, { hookChanged: async () => undefined });
  const deps = { hooks, liveConfig: new MutableConfigView(), logger: createSilentLogger(), clock: { now: () => Date.now() } } as unknown as Deps;
  const channel = { id: newId(), team_id: teamId, team_name: 't', type: 'O', name: 'c', display_name: 'c', creator_id: '', delete_at: 0 };
  const post = { id: newId(), channel_id: channel.id, user_id: newId(), root_id: '', message: 'nothing matches here', type: '', props: {}, create_at: 1, file_ids: [] };
  const author = { id: post.user_id, username: 'u', is_bot: false };
  const created = { id: newId(), type: 'post.created', version: 1, time: 1, payload: { post, channel, team: { id: teamId, name: 't' }, author, source: 'api', from_webhook: false, is_system: false } };
  const reaction = { id: newId(), type: 'reaction.added', version: 1, time: 1, payload: { reaction: { user_id: author.id, post_id: post.id, emoji_name: 'x', create_at: 1 }, post, channel, team: { id: teamId, name: 't' }, reactor: author } };
  const postedUs = await perEventUs(postCreatedHandler(deps), { value: created, offset: '0', key: channel.id });
  const reactionUs = await perEventUs(hookEventsHandler(deps), { value: reaction, offset: '0', key: channel.id });
  return { postedUs, reactionUs };
}
