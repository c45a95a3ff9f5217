import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { UserMentionSettings } from '@switchyard/contracts';
import { ManualClock, newId } from '@switchyard/ids';
import { defaultSystemConfig, MutableConfigView } from '@switchyard/system-config';
import { memoryRepositories } from './adapters/memory';
import { aChannel, aChannelMember, aPost } from './adapters/contracts/fixtures';
import type { StoredPost } from './domain/entities';
import { FakeUsers } from './test-support/fake-users';
import { RecordingSink } from './test-support/recording-sink';
import type { Deps } from './domain/ports';
import { countMentions } from './domain/channels/count-mentions';
import { heedsChannelMentions, mentionedMembers, postMentions } from './domain/channels/mentioned-members';

const defaults = { mention_keys: [], first_name: '', channel: true };

interface Ids {
  readonly author: string;
  readonly bob: string;
  readonly carol: string;
  readonly dave: string;
}

async function world(settingsOf: (ids: Ids) => Record<string, Partial<UserMentionSettings>> = () => ({}), onlineOf: (ids: Ids) => readonly string[] = () => []) {
  const repositories = memoryRepositories();
  const liveConfig = new MutableConfigView();
  liveConfig.replace(defaultSystemConfig());
  const ids: Ids = { author: newId(), bob: newId(), carol: newId(), dave: newId() };
  const settings = settingsOf(ids);
  const online = onlineOf(ids);
  const names = new Map([['bob', ids.bob], ['carol', ids.carol], ['dave', ids.dave]]);
  const asked: string[][] = [];
  const deps: Deps = {
    ...repositories,
    cachedChannels: { cached: (id) => repositories.channels.findById(id) },
    cachedMembers: { cachedMember: (channelId, userId) => repositories.channelMembers.find(channelId, userId) },
    clock: new ManualClock(),
    users: new FakeUsers(),
    userNames: { idsByUsernames: async (wanted) => new Map(wanted.flatMap((n): [string, string][] => (names.has(n) ? [[n, names.get(n) ?? '']] : []))) },
    mentionSettings: {
      of: async (wanted) => {
        asked.push([...wanted]);
        return new Map(wanted.flatMap((id): [string, UserMentionSettings][] => (settings[id] ? [[id, { ...defaults, ...settings[id] }]] : [])));
      },
    },
    onlineUsers: { online: async (wanted) => wanted.filter((id) => online.includes(id)) },
    events: new RecordingSink(),
    liveConfig,
    relay: async () => undefined,
    relayAll: async () => undefined,
  };
  const channel = aChannel({ type: 'O' });
  await repositories.channels.insert(channel);
  for (const userId of [ids.author, ids.bob, ids.carol]) await repositories.channelMembers.insert(aChannelMember({ channel_id: channel.id, user_id: userId }));
  const say = (message: string, extra: Partial<StoredPost> = {}) => aPost({ channel_id: channel.id, user_id: ids.author, message, ...extra });
  const mentioned = async (message: string) => (await mentionedMembers(deps, say(message), channel)).sort();
  return { deps, channel, ids, asked, repositories, say, mentioned };
}

const sorted = (...ids: string[]) => [...ids].sort();

type World = Awaited<ReturnType<typeof world>>;

/** CollapsedThreads set to `crt`, then a root by `rootAuthor` with one reply by `replier` (recorded as the store does). */
async function threadWithOneReply(w: World, crt: 'disabled' | 'default_off', rootAuthor: string, replier: string): Promise<StoredPost> {
  const config = w.deps.liveConfig.current();
  (w.deps.liveConfig as MutableConfigView).replace({ ...config, ServiceSettings: { ...config.ServiceSettings, CollapsedThreads: crt } });
  const root = aPost({ channel_id: w.channel.id, user_id: rootAuthor, message: 'root' });
  await w.repositories.posts.insert(root);
  const first = aPost({ channel_id: w.channel.id, user_id: replier, root_id: root.id, message: 'first' });
  await w.repositories.posts.insert(first);
  await w.repositories.posts.recordReply(root.id, first.create_at, replier);
  return root;
}


describe('mentionedMembers (who a new post mentions, the reference\'s getExplicitMentionsAndKeywords)', () => {
  it('when a post contains a member\'s mention key or first name (first_name on), then that member is mentioned; a non-member never; the author never', async () => {
    const w = await world((ids) => ({ [ids.bob]: { mention_keys: ['deploy'] }, [ids.carol]: { first_name: 'Carol' }, [ids.author]: { mention_keys: ['deploy'] }, [ids.dave]: { mention_keys: ['deploy'] } }));
    assert.deepEqual(await w.mentioned('the Deploy is done'), [w.ids.bob]);
    assert.deepEqual(await w.mentioned('thanks Carol'), [w.ids.carol]);
    assert.deepEqual(await w.mentioned('thanks carol'), [], 'first names are case-sensitive');
    assert.deepEqual(await w.mentioned('no keyword at all'), []);
    assert.deepEqual(await w.mentioned('@dave deploy'), [w.ids.bob], 'dave is named and has the key but is no member');
    assert.ok(w.asked.every((batch) => !batch.includes(w.ids.dave)), 'only members\' settings are asked for');
  });

  it('when a post says @channel, then members whose user turned channel mentions off, or whose membership ignores them (on, or default when muted), are not mentioned unless named', async () => {
    const w = await world((ids) => ({ [ids.bob]: { channel: false } }));
    assert.deepEqual(await w.mentioned('@channel hi'), [w.ids.carol]);
    assert.deepEqual(await w.mentioned('@all hi @bob'), sorted(w.ids.bob, w.ids.carol), 'named still mentions');
    await w.repositories.channelMembers.updateNotifyProps(w.channel.id, w.ids.carol, { mark_unread: 'mention' }, 1);
    assert.deepEqual(await w.mentioned('@channel hi'), [], 'muted with ignore_channel_mentions default');
    await w.repositories.channelMembers.updateNotifyProps(w.channel.id, w.ids.carol, { ignore_channel_mentions: 'off' }, 2);
    assert.deepEqual(await w.mentioned('@channel hi'), [w.ids.carol], 'muted but off: heeds');
    await w.repositories.channelMembers.updateNotifyProps(w.channel.id, w.ids.carol, { mark_unread: 'all', ignore_channel_mentions: 'on' }, 3);
    assert.deepEqual(await w.mentioned('@channel hi'), []);
  });

  it('when a post says @here, then the online members heeding it', async () => {
    const w = await world((ids) => ({ [ids.bob]: { channel: false } }), (ids) => [ids.bob, ids.carol]);
    assert.deepEqual(await w.mentioned('@here anyone?'), [w.ids.carol]);
  });

  it('when a post is counted, then the members it mentions gain one (urgent: on urgent_mention_count too) and their ids are answered', async () => {
    const w = await world((ids) => ({ [ids.carol]: { mention_keys: ['release'] } }));
    const post = w.say('release now @bob', { metadata: { priority: { priority: 'urgent' } } });
    assert.deepEqual([...(await countMentions(w.deps, post, w.channel))].sort(), sorted(w.ids.bob, w.ids.carol));
    const carol = await w.repositories.channelMembers.find(w.channel.id, w.ids.carol);
    assert.deepEqual([carol?.mention_count, carol?.mention_count_root, carol?.urgent_mention_count], [1, 1, 1]);
    assert.deepEqual(await countMentions(w.deps, w.say('nothing'), w.channel), []);
  });

  it('when the channel is a group channel, then every member but the author is mentioned, whatever the text', async () => {
    const w = await world();
    const group = { ...w.channel, type: 'G' as const };
    assert.deepEqual((await mentionedMembers(w.deps, w.say('just chatting'), group)).sort(), sorted(w.ids.bob, w.ids.carol));
  });

  it('when names and keywords sit in code spans or code blocks, then they mention nobody; the same words in text do', async () => {
    const w = await world((ids) => ({ [ids.bob]: { mention_keys: ['deploy'] } }));
    assert.deepEqual(await w.mentioned('run `deploy` as `@carol`'), []);
    assert.deepEqual(await w.mentioned('```\n@carol deploy @channel\n```'), []);
    assert.deepEqual(await w.mentioned('    @carol deploy'), [], 'indented code');
    assert.deepEqual(await w.mentioned('[link](http://x/@carol) then deploy'), [w.ids.bob], 'a link destination is no text');
    assert.deepEqual(await w.mentioned('`x` @carol deploy'), sorted(w.ids.bob, w.ids.carol));
  });

  it('when a text has no @ and no member keeps keywords, then nobody is mentioned; a character reference or a keyword in link text still mentions', async () => {
    const plain = await world();
    assert.deepEqual(await plain.mentioned('[build 42 failed](http://ci.example/42) `carol`'), []);
    assert.deepEqual(await plain.mentioned('ping &#64;carol'), [plain.ids.carol], 'a character reference spelling @carol');
    const keyed = await world((ids) => ({ [ids.bob]: { mention_keys: ['deploy'] } }));
    assert.deepEqual(await keyed.mentioned('[deploy log](http://ci.example/deploy)'), [keyed.ids.bob], 'link text is read');
    assert.deepEqual(await keyed.mentioned('see the `deploy` log'), [], 'a code span is not');
  });

  it('when a webhook posted, then its creator may be mentioned (by name, keyword or @channel); any other author never', async () => {
    const w = await world((ids) => ({ [ids.author]: { mention_keys: ['oncall'] } }));
    const hook = { props: { from_webhook: 'true' } };
    assert.deepEqual((await mentionedMembers(w.deps, w.say('oncall: build broke', hook), w.channel)).sort(), [w.ids.author]);
    assert.deepEqual((await mentionedMembers(w.deps, w.say('@channel build broke', hook), w.channel)).sort(), sorted(w.ids.author, w.ids.bob, w.ids.carol));
    assert.deepEqual(await w.mentioned('oncall: build broke'), []);
    const direct = { ...w.channel, type: 'D' as const, name: [w.ids.author, w.ids.bob].sort().join('__') };
    assert.deepEqual((await mentionedMembers(w.deps, w.say('hi', hook), direct)).sort(), sorted(w.ids.author, w.ids.bob), 'a DM: both users');
    assert.deepEqual(await mentionedMembers(w.deps, w.say('hi'), direct), [w.ids.bob]);
  });

  it('when a channel has more than 1,000 members, then keywords are looked for among all of them, read in pages of at most 1,000; @channel mentions nobody', async () => {
    const last = 'z'.repeat(26);
    const w = await world(() => ({ [last]: { mention_keys: ['pager'] } }));
    for (let i = 0; i < 1_100; i += 1) await w.repositories.channelMembers.insert(aChannelMember({ channel_id: w.channel.id }));
    await w.repositories.channelMembers.insert(aChannelMember({ channel_id: w.channel.id, user_id: last }));
    w.asked.length = 0;
    assert.deepEqual(await w.mentioned('the pager went off'), [last]);
    assert.ok(w.asked.length >= 2 && w.asked.every((batch) => batch.length <= 1_000), 'settings asked a page at a time');
    assert.equal(new Set(w.asked.flat()).size, 1_104, 'every member once');
    assert.deepEqual(await w.mentioned('@channel and @bob'), [w.ids.bob], 'named still counts');
  });

  it('when a reply is written, then members who wrote its root (comments root or any) or a reply (any) are mentioned as writers while they do not see collapsed threads', async () => {
    const w = await world((ids) => ({ [ids.bob]: { comments: 'root' }, [ids.carol]: { comments: 'any' } }));
    const config = w.deps.liveConfig.current();
    const root = await threadWithOneReply(w, 'default_off', w.ids.bob, w.ids.carol);
    const reply = (message: string) => w.say(message, { root_id: root.id });
    const thanks = await postMentions(w.deps, reply('thanks'), w.channel);
    assert.deepEqual([...thanks.ids].sort(), sorted(w.ids.bob, w.ids.carol));
    assert.deepEqual([...thanks.asWriters].sort(), sorted(w.ids.bob, w.ids.carol));
    const named = await postMentions(w.deps, reply(`thanks @bob`), w.channel);
    assert.deepEqual([...named.ids].sort(), sorted(w.ids.bob, w.ids.carol));
    assert.deepEqual([...named.asWriters], [w.ids.carol], 'named: a mention, not only a writer');
    assert.deepEqual(await mentionedMembers(w.deps, w.say('a new root'), w.channel), [], 'roots mention no writers');
    (w.deps.liveConfig as MutableConfigView).replace({ ...config, ServiceSettings: { ...config.ServiceSettings, CollapsedThreads: 'always_on' } });
    assert.deepEqual((await postMentions(w.deps, reply('thanks'), w.channel)).ids, [], 'collapsed threads: no comment mentions');
  });

  it('when a root was written by a member with comments root, then only a reply to that root mentions them; comments any also needs a reply of theirs', async () => {
    const w = await world((ids) => ({ [ids.bob]: { comments: 'any' }, [ids.carol]: { comments: 'root' } }));
    const root = await threadWithOneReply(w, 'disabled', w.ids.author, w.ids.carol);
    assert.deepEqual(await mentionedMembers(w.deps, w.say('next', { root_id: root.id }), w.channel), [], 'bob wrote nothing; carol only a reply');
  });

  it('heedsChannelMentions reads the membership and the user as the reference\'s AddUser', () => {
    assert.equal(heedsChannelMentions({}, undefined), true);
    assert.equal(heedsChannelMentions({}, { ...defaults, channel: false }), false);
    assert.equal(heedsChannelMentions({ notify_props: { mark_unread: 'mention' } }, undefined), false);
    assert.equal(heedsChannelMentions({ notify_props: { mark_unread: 'mention', ignore_channel_mentions: 'off' } }, undefined), true);
    assert.equal(heedsChannelMentions({ notify_props: { ignore_channel_mentions: 'on' } }, undefined), false);
  });
});

describe('mentionedMembers when users-bots cannot answer', () => {
  it('when the settings lookup fails, then the defaults apply: named members and channel-wide words still count', async () => {
    const w = await world();
    const failing: Deps = { ...w.deps, mentionSettings: { of: async () => Promise.reject(new Error('users-bots down')) } };
    assert.deepEqual((await mentionedMembers(failing, w.say('@bob deploy'), w.channel)).sort(), [w.ids.bob]);
    assert.deepEqual((await mentionedMembers(failing, w.say('@channel'), w.channel)).sort(), sorted(w.ids.bob, w.ids.carol));
  });
});
