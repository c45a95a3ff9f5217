import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { channelMemberUpdatedPayloadSchema, channelViewedPayloadSchema, emojiAddedPayloadSchema, envelope, preferencesEventPayloadSchema, threadReadChangedPayloadSchema, threadUpdatedPayloadSchema } from '@switchyard/contracts';
import { fromRealtimeEvent } from './realtime-events';

describe('realtime.events → collapsed-thread WebSocket events', () => {
  it('when a thread.updated arrives, then thread_updated goes to that user with the thread as a JSON string', () => {
    const thread = { id: 't1', reply_count: 2, participants: [{ id: 'u2' }] };
    const [event] = fromRealtimeEvent(envelope('thread.updated', { user_id: 'u1', team_id: 'team1', thread, previous_unread_mentions: 1, previous_unread_replies: 3 }));
    assert.equal(event?.event, 'thread_updated');
    assert.deepEqual(event?.data, { thread: JSON.stringify(thread), previous_unread_mentions: 1, previous_unread_replies: 3 });
    assert.equal(event?.broadcast.user_id, 'u1');
    assert.equal(event?.broadcast.team_id, 'team1');
  });

  it('when follow and read changes arrive, then thread_follow_changed and thread_read_changed carry the reference\'s fields only', () => {
    const [follow] = fromRealtimeEvent(envelope('thread.follow_changed', { user_id: 'u1', team_id: 'team1', thread_id: 't1', state: false, reply_count: 4 }));
    assert.deepEqual([follow?.event, follow?.data], ['thread_follow_changed', { thread_id: 't1', state: false, reply_count: 4 }]);
    const [all] = fromRealtimeEvent(envelope('thread.read_changed', { user_id: 'u1', team_id: 'team1' }));
    assert.deepEqual([all?.event, all?.data, all?.broadcast.user_id], ['thread_read_changed', {}, 'u1']);
  });

  it('when a thread payload is malformed, then its schema refuses it (the consumer drops such messages)', () => {
    assert.ok(threadUpdatedPayloadSchema.validate({ user_id: 'u1', team_id: 'team1', thread: 'not an object', previous_unread_mentions: 0, previous_unread_replies: 0 }).error);
    assert.ok(threadReadChangedPayloadSchema.validate({ user_id: '', team_id: 'team1' }).error);
    assert.equal(threadReadChangedPayloadSchema.validate({ user_id: 'u1', team_id: '' }).error, undefined);
  });
});

describe('realtime.events → emoji_added', () => {
  it('when an emoji.added arrives, then emoji_added goes to every connection with the emoji as a JSON string', () => {
    const emoji = { id: 'e1', create_at: 5, update_at: 5, delete_at: 0, creator_id: 'u1', name: 'parrot' };
    const [event] = fromRealtimeEvent(envelope('emoji.added', { emoji }));
    assert.equal(event?.event, 'emoji_added');
    assert.deepEqual(event?.data, { emoji: JSON.stringify(emoji) });
    assert.deepEqual([event?.broadcast.user_id, event?.broadcast.channel_id, event?.broadcast.team_id], ['', '', '']);
    assert.ok(emojiAddedPayloadSchema.validate({ emoji: { ...emoji, name: '' } }).error);
    assert.equal(emojiAddedPayloadSchema.validate({ emoji }).error, undefined);
  });
});

describe('realtime.events → preferences_changed / preferences_deleted', () => {
  it('when preferences change, then the user gets the list as a JSON string', () => {
    const preferences = [{ user_id: 'u1', category: 'display_settings', name: 'collapsed_reply_threads', value: 'off' }];
    const [changed] = fromRealtimeEvent(envelope('preferences.changed', { user_id: 'u1', preferences }));
    assert.deepEqual([changed?.event, changed?.data, changed?.broadcast.user_id], ['preferences_changed', { preferences: JSON.stringify(preferences) }, 'u1']);
    const [deleted] = fromRealtimeEvent(envelope('preferences.deleted', { user_id: 'u1', preferences }));
    assert.equal(deleted?.event, 'preferences_deleted');
    assert.ok(preferencesEventPayloadSchema.validate({ user_id: 'u1', preferences: 'x' }).error);
  });
});

describe('realtime.events → thread_read_changed of a viewed channel', () => {
  it('when a channel\'s threads were read on view, then the channel is in the broadcast and only the timestamp in data', () => {
    const [event] = fromRealtimeEvent(envelope('thread.read_changed', { user_id: 'u1', team_id: '', channel_id: 'c1', timestamp: 77 }));
    assert.deepEqual([event?.event, event?.data, event?.broadcast.user_id, event?.broadcast.channel_id], ['thread_read_changed', { timestamp: 77 }, 'u1', 'c1']);
  });
});

describe('realtime.events → channel_member_updated', () => {
  it('when a membership changed, then the user gets channel_member_updated with the member as a JSON string under channelMember', () => {
    const member = { channel_id: 'c1', user_id: 'u1', notify_props: { desktop: 'all' } };
    const [event] = fromRealtimeEvent(envelope('channel_member.updated', { user_id: 'u1', channel_member: member }));
    assert.equal(event?.event, 'channel_member_updated');
    assert.deepEqual(event?.data, { channelMember: JSON.stringify(member) });
    assert.equal(event?.broadcast.user_id, 'u1');
    assert.equal(event?.broadcast.channel_id, '');
    assert.ok(channelMemberUpdatedPayloadSchema.validate({ user_id: 'u1' }).error, 'no member: refused');
  });
});

describe('realtime.events → multiple_channels_viewed', () => {
  it('when a channel.viewed arrives, then the newest reference\'s multiple_channels_viewed goes to the user with channel_times', () => {
    const [event] = fromRealtimeEvent(envelope('channel.viewed', { user_id: 'u1', channel_id: 'c1', channel_times: { c1: 10, c2: 20 } }));
    assert.deepEqual([event?.event, event?.data, event?.broadcast.user_id], ['multiple_channels_viewed', { channel_times: { c1: 10, c2: 20 } }, 'u1']);
    const [older] = fromRealtimeEvent(envelope('channel.viewed', { user_id: 'u1', channel_id: 'c1' }));
    assert.deepEqual(older?.data, { channel_times: { c1: 0 } }, 'an older posts names one channel and no time');
    assert.ok(channelViewedPayloadSchema.validate({ user_id: 'u1', channel_id: 'c1', channel_times: { c1: 'x' } }).error);
  });
});
