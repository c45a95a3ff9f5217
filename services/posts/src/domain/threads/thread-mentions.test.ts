import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { countThreadMentions, mentionsUser } from './thread-mentions';

const post = (message: string) => ({ message, props: {} });
const defaults = { mention_keys: [], first_name: '', channel: true };

describe('mentionsUser (the reference\'s countThreadMentions for one reader)', () => {
  it('when a reply names the reader, says a channel-wide word or contains their key or first name, then it mentions them; never inside code', async () => {
    const reader = { id: 'u1', username: 'Kim', settings: { ...defaults, mention_keys: ['deploy'], first_name: 'Kimberly' } };
    assert.equal(await mentionsUser(post('hey @kim'), reader), true);
    assert.equal(await mentionsUser(post('@here anyone'), reader), true);
    assert.equal(await mentionsUser(post('the DEPLOY broke'), reader), true);
    assert.equal(await mentionsUser(post('ask Kimberly'), reader), true);
    assert.equal(await mentionsUser(post('ask kimberly'), reader), false, 'first names as written');
    assert.equal(await mentionsUser(post('run `deploy` and `@kim`'), reader), false);
    assert.equal(await mentionsUser(post('nothing here'), { id: 'u1', username: 'kim' }), false);
  });

  it('when the reader turned channel-wide mentions off, then @channel, @all and @here do not mention them', async () => {
    const reader = { id: 'u1', username: 'kim', settings: { ...defaults, channel: false } };
    assert.equal(await mentionsUser(post('@channel @all @here'), reader), false);
    assert.equal(await mentionsUser(post('@channel @kim'), reader), true);
  });

  describe('countThreadMentions (the newest reference)', () => {
    const reader = { id: 'me', username: 'kim' };
    const reply = (user_id: string, create_at: number, message = 'hello') => ({ user_id, create_at, message, props: {} });
    const open = { type: 'O', name: 'town' } as const;

    it('when replies name the reader, then those created at or after the timestamp count, the reader\'s own included', async () => {
      const replies = [reply('bob', 99, '@kim early'), reply('bob', 100, '@kim at'), reply('bob', 101, 'no one'), reply('me', 102, 'note to @kim')];
      assert.equal(await countThreadMentions(open, replies, reader, 100), 2);
      assert.equal(await countThreadMentions(open, replies, reader, 103), 0);
    });

    it('when the thread is in a direct channel, then each reply of the other user counts; in a self-DM or a group channel none', async () => {
      const replies = [reply('bob', 10), reply('me', 11), reply('bob', 12, '@kim')];
      assert.equal(await countThreadMentions({ type: 'D', name: 'bob__me' }, replies, reader, 10), 2);
      assert.equal(await countThreadMentions({ type: 'D', name: 'me__me' }, [reply('me', 10, '@kim')], reader, 0), 0);
      assert.equal(await countThreadMentions({ type: 'G', name: 'g1' }, replies, reader, 0), 0);
    });
  });
});
