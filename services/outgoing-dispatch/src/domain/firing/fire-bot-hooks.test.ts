import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newId } from '@switchyard/ids';
import type { OutgoingHook } from '../entities';
import type { InternalChannel } from '@switchyard/contracts';
import { botCandidates, mentions, type BotView } from './fire-bot-hooks.usecase';
import { botEventCandidates, inHookScope } from './fire-events.usecase';
import { botHooksInScope } from './bot-index';

const bot = newId();
const aHook = (over: Partial<OutgoingHook>): OutgoingHook => ({
  id: newId(), token: newId(), createAt: 1, updateAt: 1, deleteAt: 0, creatorId: newId(), channelId: '', teamId: newId(), triggerWords: [], triggerWhen: 0,
  callbackUrls: ['http://127.0.0.1:9/x'], displayName: '', description: '', contentType: '', username: '', iconUrl: '', signingSecret: 'whsec_x',
  previousSigningSecret: '', previousSecretExpiresAt: 0, disabledAt: 0, signingAlgorithm: 'hmac-sha256', signingKey: '', previousSigningKey: '',
  eventTypes: ['posted'], botUserId: '', ...over,
});
const teamId = newId();
const view = (over: Partial<BotView>): BotView => ({ channelId: newId(), channelType: 'O', channelName: 'x', teamId, authorId: newId(), message: '', ...over });

test('when bot hooks are pre-selected, then DMs with the bot, group messages, its channel and possible mentions in its team count; its own posts never', () => {
  const hook = aHook({ teamId, botUserId: bot, channelId: '' });
  const channelHook = aHook({ teamId, botUserId: bot, channelId: newId() });
  assert.equal(botCandidates([hook], view({ channelType: 'D', channelName: `${newId()}__${bot}` })).length, 1);
  assert.equal(botCandidates([hook], view({ channelType: 'D', channelName: `${newId()}__${newId()}` })).length, 0);
  assert.equal(botCandidates([hook], view({ channelType: 'G' })).length, 1);
  assert.equal(botCandidates([hook], view({ channelType: 'P', message: 'hi @someone' })).length, 1);
  assert.equal(botCandidates([hook], view({ channelType: 'P', message: 'no mention' })).length, 0);
  assert.equal(botCandidates([hook], view({ channelType: 'O', message: 'hi @x', teamId: newId() })).length, 0);
  assert.equal(botCandidates([hook], view({ channelType: 'G', authorId: bot })).length, 0);
  assert.equal(botCandidates([{ ...hook, disabledAt: 1 }], view({ channelType: 'G' })).length, 0);
  assert.equal(botCandidates([{ ...hook, eventTypes: ['reaction_added'] }], view({ channelType: 'G' })).length, 0);
  assert.equal(botCandidates([channelHook], view({ channelId: channelHook.channelId, channelType: 'P' })).length, 1);
  assert.equal(botCandidates([channelHook], view({ channelType: 'G' })).length, 0);
});

test('when a message mentions a username, then only the whole name counts, any case, with punctuation after it', () => {
  assert.equal(mentions('@deploy-bot go', 'deploy-bot'), true);
  assert.equal(mentions('hey @Deploy-Bot, go', 'deploy-bot'), true);
  assert.equal(mentions('done @deploy-bot.', 'deploy-bot'), true);
  assert.equal(mentions('hey @deploy-botx', 'deploy-bot'), false);
  assert.equal(mentions('hey @deploy-bot.x', 'deploy-bot'), false);
  assert.equal(mentions('mail me@deploy-bot', 'deploy-bot'), false);
  assert.equal(mentions('deploy-bot', 'deploy-bot'), false);
});

test('when bot hooks are pre-selected for an event, then its channel, DMs with the bot, group messages and its team\'s channels count; the bot\'s own actions never', () => {
  const hook = aHook({ teamId, botUserId: bot, eventTypes: ['reaction_added'] });
  const channelHook = aHook({ teamId, botUserId: bot, channelId: newId(), eventTypes: ['reaction_added'] });
  const channel = (over: Partial<InternalChannel>): InternalChannel => ({ id: newId(), team_id: teamId, team_name: 't', type: 'P', name: 'x', display_name: 'x', creator_id: '', delete_at: 0, ...over });
  const someone = newId();
  assert.equal(botEventCandidates([hook], { channel: channel({ type: 'D', team_id: '', name: `${someone}__${bot}` }), actorId: someone }).length, 1);
  assert.equal(botEventCandidates([hook], { channel: channel({ type: 'D', team_id: '', name: `${someone}__${newId()}` }), actorId: someone }).length, 0);
  assert.equal(botEventCandidates([hook], { channel: channel({ type: 'G', team_id: '' }), actorId: someone }).length, 1);
  assert.equal(botEventCandidates([hook], { channel: channel({ type: 'P' }), actorId: someone }).length, 1);
  assert.equal(botEventCandidates([hook], { channel: channel({ type: 'O', team_id: newId() }), actorId: someone }).length, 0, "another team's channel");
  assert.equal(botEventCandidates([hook], { channel: channel({ type: 'G', team_id: '' }), actorId: bot }).length, 0, "the bot's own reaction");
  assert.equal(botEventCandidates([{ ...hook, disabledAt: 1 }], { channel: channel({ type: 'G', team_id: '' }), actorId: someone }).length, 0);
  assert.equal(botEventCandidates([channelHook], { channel: channel({ id: channelHook.channelId }), actorId: someone }).length, 1);
  assert.equal(botEventCandidates([channelHook], { channel: channel({ type: 'P' }), actorId: someone }).length, 0);
});

test('when bot hooks are looked up for a channel, then only those whose scope can include it come back (its channel, the DM\'s bots, the team, every unscoped hook for a group)', () => {
  const otherTeam = newId();
  const a = aHook({ teamId, botUserId: newId() });
  const b = aHook({ teamId: otherTeam, botUserId: newId() });
  const c = aHook({ teamId, botUserId: newId(), channelId: newId() });
  const hooks = [a, b, c];
  const ids = (list: readonly OutgoingHook[]) => list.map((h) => h.id).sort();
  assert.deepEqual(ids(botHooksInScope(hooks, { id: newId(), type: 'O', name: 'x', teamId })), [a.id]);
  assert.deepEqual(ids(botHooksInScope(hooks, { id: c.channelId, type: 'P', name: 'x', teamId })), [a.id, c.id].sort());
  assert.deepEqual(ids(botHooksInScope(hooks, { id: newId(), type: 'D', name: `${newId()}__${b.botUserId}`, teamId: '' })), [b.id]);
  assert.deepEqual(ids(botHooksInScope(hooks, { id: newId(), type: 'G', name: 'x', teamId: '' })), [a.id, b.id].sort());
  assert.deepEqual(botHooksInScope(hooks, { id: newId(), type: 'O', name: 'x', teamId: newId() }), []);
});

test('when a legacy hook is asked about an event, then only a public channel of its team counts: its own channel, or any when it has none', () => {
  const own = newId();
  const channel = (over: Partial<InternalChannel>): InternalChannel => ({ id: own, team_id: teamId, team_name: 't', type: 'O', name: 'x', display_name: 'x', creator_id: '', delete_at: 0, ...over });
  assert.equal(inHookScope({ channelId: own, teamId }, { channel: channel({}) }), true);
  assert.equal(inHookScope({ channelId: own, teamId }, { channel: channel({ type: 'P' }) }), false, 'its channel, private');
  assert.equal(inHookScope({ channelId: own, teamId }, { channel: channel({ id: newId() }) }), false);
  assert.equal(inHookScope({ channelId: '', teamId }, { channel: channel({ id: newId() }) }), true);
  assert.equal(inHookScope({ channelId: '', teamId }, { channel: channel({ id: newId(), type: 'P' }) }), false);
  assert.equal(inHookScope({ channelId: '', teamId }, { channel: channel({ id: newId(), team_id: newId() }) }), false);
  assert.equal(inHookScope({ channelId: '', teamId }, { channel: channel({ id: newId(), type: 'D', team_id: '' }) }), false);
});
