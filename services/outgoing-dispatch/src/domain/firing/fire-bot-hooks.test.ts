import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newId } from '@switchyard/ids';
import type { OutgoingHook } from '../entities';
import { botCandidates, mentions, type BotView } from './fire-bot-hooks.usecase';

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
