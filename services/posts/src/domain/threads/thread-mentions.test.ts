import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mentionsUser } from './thread-mentions';

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
});
