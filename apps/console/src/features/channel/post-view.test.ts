import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Post, User } from '../../api/types';
import { senderOf } from './post-view';

const author: User = { id: 'hookowner', username: 'hook.owner', roles: 'system_user', delete_at: 0, last_picture_update: 12 };
const post = (props: Record<string, unknown>): Post => ({ id: 'p', channel_id: 'c', user_id: author.id, message: 'm', type: '', create_at: 1, update_at: 1, edit_at: 0, delete_at: 0, root_id: '', props }) as unknown as Post;

describe('senderOf', () => {
  it('when a webhook post carries override_icon_url and override_username, then both are shown with the BOT label', () => {
    const sender = senderOf(post({ from_webhook: 'true', override_username: 'CI', override_icon_url: 'https://ci.example/logo.png' }), author);
    assert.equal(sender.name, 'CI');
    assert.equal(sender.iconUrl, 'https://ci.example/logo.png');
    assert.equal(sender.isBot, true);
  });

  it("when there is no override, then the author's profile picture (versioned by last_picture_update) is shown", () => {
    const sender = senderOf(post({}), author);
    assert.equal(sender.iconUrl, '/api/v4/users/hookowner/image?_=12');
    assert.equal(sender.isBot, false);
    assert.equal(sender.initials, 'HO');
  });

  it('when the override icon is not an http(s) address, then it is not used', () => {
    const sender = senderOf(post({ from_webhook: 'true', override_icon_url: 'javascript:alert(1)' }), author);
    assert.equal(sender.iconUrl, '/api/v4/users/hookowner/image?_=12');
  });
});
