import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mentionPlan } from './mention-plan';

const alice = 'a'.repeat(26);
const bob = 'b'.repeat(26);
const post = (message: string, props: Record<string, unknown> = {}) => ({ message, props, user_id: alice });

describe('mentionPlan (which members a new post counts a mention on)', () => {
  it('when the channel is direct, then every post of one user mentions the other, whatever its text; a self-DM nobody', () => {
    assert.deepEqual(mentionPlan({ type: 'D', name: `${alice}__${bob}` }, post('no mention at all')), { direct: [bob], names: [], everyone: false, here: false });
    assert.deepEqual(mentionPlan({ type: 'D', name: `${alice}__${bob}` }, { ...post('hi'), user_id: bob }), { direct: [alice], names: [], everyone: false, here: false });
    assert.equal(mentionPlan({ type: 'D', name: `${alice}__${alice}` }, post('@alice note to self')), undefined);
  });

  it('when a channel post names users, then those names are looked up; channel-wide words only set their flags', () => {
    assert.deepEqual(mentionPlan({ type: 'O', name: 'town' }, post('hey @Bob and @carol.')), { direct: [], names: ['bob', 'carol.', 'carol'], everyone: false, here: false });
    assert.deepEqual(mentionPlan({ type: 'P', name: 'p' }, post('@channel look')), { direct: [], names: [], everyone: true, here: false });
    assert.deepEqual(mentionPlan({ type: 'G', name: 'g' }, post('@all and @here')), { direct: [], names: [], everyone: true, here: true });
    assert.deepEqual(mentionPlan({ type: 'O', name: 'town' }, post('@here')), { direct: [], names: [], everyone: false, here: true });
  });

  it('when nothing is named, then no plan (no look-up, no write); attachments\' texts count as the message', () => {
    assert.equal(mentionPlan({ type: 'O', name: 'town' }, post('plain words, mail@ none')), undefined);
    assert.equal(mentionPlan({ type: 'G', name: 'g' }, post('group chatter')), undefined);
    const withAttachment = post('see below', { attachments: [{ pretext: 'ping @dave', fields: [{ value: '@erin' }] }] });
    assert.deepEqual(mentionPlan({ type: 'O', name: 'town' }, withAttachment)?.names, ['dave', 'erin']);
  });

  it('when a post names very many users, then at most 50 are looked up', () => {
    const many = Array.from({ length: 80 }, (_, i) => `@user${i}`).join(' ');
    assert.equal(mentionPlan({ type: 'O', name: 'town' }, post(many))?.names.length, 50);
  });
});
