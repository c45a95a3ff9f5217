import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { InternalUser, PostEventPayload, PostsEvent } from '@switchyard/contracts';
import { fromPostsEvent, type PostEventsDeps } from './post-events';

const USERNAMES: Record<string, string> = { author: 'ann', bob: 'bob', carol: 'carol', dave: 'dave' };

function user(id: string, roles: string): InternalUser {
  return { id, username: USERNAMES[id] ?? id, roles, isBot: false, deleteAt: 0, firstName: '', lastName: '', nickname: '' };
}

interface World {
  readonly members: readonly string[];
  readonly online?: readonly string[];
  readonly authorRoles?: string;
}

function deps(world: World): PostEventsDeps {
  return {
    membership: { channelMembers: async () => new Set(world.members) },
    users: { usersByIds: async (ids) => ids.map((id) => user(id, id === 'author' ? (world.authorRoles ?? 'system_user') : 'system_user')), userUpdatedCopies: async () => undefined },
    usernameOf: (id) => USERNAMES[id] ?? '',
    onlineAmong: async (ids) => new Set(ids.filter((id) => (world.online ?? []).includes(id))),
  };
}

function created(message: string, extra: { type?: string; props?: Record<string, unknown>; mentions?: readonly string[] } = {}): PostsEvent {
  const payload: PostEventPayload = {
    post: {
      id: 'p1', create_at: 1, update_at: 1, edit_at: 0, delete_at: 0, is_pinned: false, user_id: 'author', channel_id: 'c1', root_id: '', original_id: '',
      message, type: extra.type ?? '', props: extra.props ?? {}, hashtags: '', file_ids: [], pending_post_id: '', reply_count: 0, last_reply_at: 0, participants: null,
    },
    channel: { id: 'c1', team_id: 't1', team_name: 'team', type: 'O', name: 'town', display_name: 'Town', creator_id: 'author', delete_at: 0 },
    team: { id: 't1', name: 'team' },
    author: { id: 'author', username: 'ann', is_bot: false },
    source: 'api',
    from_webhook: false,
    is_system: (extra.type ?? '').startsWith('system_'),
    ...(extra.mentions ? { mentions: extra.mentions } : {}),
  };
  return { id: 'e1', type: 'post.created', version: 1, time: 1, payload } as unknown as PostsEvent;
}

/** The receivers whose `posted` carries `mentions` (their own id). */
async function mentioned(world: World, event: PostsEvent): Promise<string[]> {
  const [posted] = await fromPostsEvent(deps(world), event);
  assert.equal(posted?.event, 'posted');
  // The hub asks only the channel's audience.
  const receivers = ['author', 'bob', 'carol', 'dave'].filter((id) => id === 'author' || world.members.includes(id));
  return receivers.filter((id) => {
    const extra = posted?.dataFor?.(id);
    if (extra) assert.equal(extra.mentions, JSON.stringify([id]));
    return extra !== undefined;
  });
}

const everyone = ['author', 'bob', 'carol', 'dave'];

describe('posted: who a post mentions (the reference\'s allowChannelMentions and mention keywords)', () => {
  it('when a member says @channel or @all, then every other member is mentioned; @here only those whose status is online', async () => {
    assert.deepEqual(await mentioned({ members: everyone }, created('heads up @channel')), ['bob', 'carol', 'dave']);
    assert.deepEqual(await mentioned({ members: everyone }, created('@all: lunch')), ['bob', 'carol', 'dave']);
    assert.deepEqual(await mentioned({ members: everyone, online: ['author', 'carol'] }, created('anyone @here?')), ['carol']);
    assert.deepEqual(await mentioned({ members: everyone, online: [] }, created('anyone @here? @dave')), ['dave']);
  });

  it('when the post is a header or purpose change, then channel-wide words mention nobody (a username still does)', async () => {
    for (const type of ['system_header_change', 'system_purpose_change']) {
      assert.deepEqual(await mentioned({ members: everyone, online: everyone }, created('@channel @here @bob', { type })), ['bob'], type);
    }
  });

  it('when the author is not a member, then channel-wide words need use_channel_mentions from their system roles', async () => {
    const members = ['bob', 'carol'];
    assert.deepEqual(await mentioned({ members, authorRoles: 'system_user' }, created('@channel deploy done @carol')), ['carol']);
    assert.deepEqual(await mentioned({ members, authorRoles: 'system_user system_post_all' }, created('@channel deploy done')), ['bob', 'carol']);
    assert.deepEqual(await mentioned({ members, authorRoles: 'system_user system_admin' }, created('@all')), ['bob', 'carol']);
  });

  it('when the channel has 1,000 members or more, then channel-wide words mention nobody', async () => {
    const crowd = [...everyone, ...Array.from({ length: 996 }, (_, i) => `m${i}`)];
    assert.deepEqual(await mentioned({ members: crowd }, created('@channel @bob')), ['bob']);
    assert.deepEqual(await mentioned({ members: crowd.slice(0, 999) }, created('@channel')), ['bob', 'carol', 'dave']);
  });

  it('when a mention is in an attachment\'s pretext, text or field value, then it counts as in the message', async () => {
    const props = { attachments: [{ pretext: 'for @bob', text: 'and @carol', fields: [{ title: 'who', value: '@dave' }, { title: 'n', value: 3 }] }, 'junk'] };
    assert.deepEqual(await mentioned({ members: everyone }, created('build finished', { props })), ['bob', 'carol', 'dave']);
    assert.deepEqual(await mentioned({ members: everyone }, created('no one', { props: { attachments: [{ title: '@bob' }] } })), []);
  });

  it('when the event carries the ids posts counted the mentions on, then exactly those receivers are mentioned and nothing is looked up', async () => {
    let asked = false;
    const counted = { ...deps({ members: everyone, online: everyone }), onlineAmong: async () => { asked = true; return new Set<string>(); } };
    const receivers = async (event: PostsEvent) => {
      const [posted] = await fromPostsEvent(counted, event);
      return everyone.filter((id) => posted?.dataFor?.(id)?.mentions === JSON.stringify([id]));
    };
    assert.deepEqual(await receivers(created('the deploy broke', { mentions: ['carol'] })), ['carol'], 'a mention key, no @ word');
    assert.deepEqual(await receivers(created('@channel @here', { mentions: ['bob'] })), ['bob'], 'notify props applied by posts');
    const [none] = await fromPostsEvent(counted, created('@bob', { mentions: [] }));
    assert.equal(none?.dataFor, undefined, 'an empty list: nobody, @bob notwithstanding');
    assert.equal(asked, false);
  });

  it('when nothing mentions anyone, then no receiver gets mentions and no status is read', async () => {
    let asked = false;
    const plain = { ...deps({ members: everyone }), onlineAmong: async () => { asked = true; return new Set<string>(); } };
    const [posted] = await fromPostsEvent(plain, created('just words'));
    assert.equal(posted?.dataFor, undefined);
    assert.equal(asked, false);
  });
});
