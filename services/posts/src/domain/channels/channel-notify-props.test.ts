import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { channelNotifyPropsOf, DEFAULT_CHANNEL_NOTIFY_PROPS, notifyPropsError, updatableNotifyProps } from './channel-notify-props';

describe('channel notify props', () => {
  it('when the body is an object, then only the known keys with string values are kept; else undefined', () => {
    assert.deepEqual(updatableNotifyProps({ desktop: 'all', push_threads: 'mention', channel_auto_follow_threads: 'on', email: 5, evil: 'x', __proto__: { push: 'none' } }), { desktop: 'all', push_threads: 'mention' });
    assert.deepEqual(updatableNotifyProps({}), {});
    assert.equal(updatableNotifyProps([]), undefined);
    assert.equal(updatableNotifyProps('desktop'), undefined);
    assert.equal(updatableNotifyProps(null), undefined);
  });

  it('when values are valid, then no error; when not, then the reference error id of the first invalid key in its order', () => {
    assert.equal(notifyPropsError({ desktop: 'mention', mark_unread: 'mention', push: 'none', email: 'false', ignore_channel_mentions: 'on', desktop_threads: 'anything' }), undefined);
    assert.equal(notifyPropsError({}), undefined);
    assert.equal(notifyPropsError({ desktop: 'loud' })?.id, 'model.channel_member.is_valid.notify_level.app_error');
    assert.equal(notifyPropsError({ mark_unread: 'none' })?.id, 'model.channel_member.is_valid.unread_level.app_error');
    assert.equal(notifyPropsError({ push: 'true' })?.id, 'model.channel_member.is_valid.push_level.app_error');
    assert.equal(notifyPropsError({ email: 'all' })?.id, 'model.channel_member.is_valid.email_value.app_error');
    assert.equal(notifyPropsError({ ignore_channel_mentions: 'yes' })?.id, 'model.channel_member.is_valid.ignore_channel_mentions_value.app_error');
    assert.equal(notifyPropsError({ email: 'x', push: 'x', desktop: 'x' })?.id, 'model.channel_member.is_valid.notify_level.app_error');
    assert.equal(notifyPropsError({ push: 'x', mark_unread: 'x' })?.statusCode, 400);
  });

  it('when a member never set props, then the defaults; else the stored keys over them', () => {
    assert.deepEqual(channelNotifyPropsOf({}), DEFAULT_CHANNEL_NOTIFY_PROPS);
    assert.deepEqual(channelNotifyPropsOf({ notify_props: { desktop: 'all', push_threads: 'mention' } }), { ...DEFAULT_CHANNEL_NOTIFY_PROPS, desktop: 'all', push_threads: 'mention' });
  });
});
