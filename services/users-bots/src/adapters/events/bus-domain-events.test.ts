import { test } from 'node:test';
import assert from 'node:assert/strict';
import { envelopeSchema, usersEventPayloadSchema } from '@switchyard/contracts';
import { defaultSystemConfig } from '@switchyard/system-config';
import { RecordingBus } from '../../test-support/recording-bus';
import { BusDomainEvents } from './bus-domain-events';

test('when a users event is published, then it is an envelope on users.events keyed by the user id', async () => {
  const bus = new RecordingBus();
  await new BusDomainEvents(bus).users('token.revoked', { userId: 'u1', tokenIds: ['t1'], sessionIds: ['s1'] });
  const [message] = bus.published;
  assert.equal(message?.topic, 'users.events');
  assert.equal(message?.key, 'u1');
  assert.equal(envelopeSchema.validate(message?.value).error, undefined);
  assert.equal(usersEventPayloadSchema.validate(message?.value.payload).error, undefined);
  assert.equal(message?.value.type, 'token.revoked');
  await bus.close();
});

test('when a team event is published, then it is an envelope on users.events keyed by the team id naming the user and the team', async () => {
  const bus = new RecordingBus();
  await new BusDomainEvents(bus).teams('team.member_added', { teamId: 't1', userId: 'u1' });
  const [message] = bus.published;
  assert.equal(message?.topic, 'users.events');
  assert.equal(message?.key, 't1');
  assert.equal(envelopeSchema.validate(message?.value).error, undefined);
  assert.equal(usersEventPayloadSchema.validate(message?.value.payload).error, undefined);
  assert.equal(message?.value.type, 'team.member_added');
  assert.deepEqual(message?.value.payload, { userId: 'u1', teamId: 't1' });
  await bus.close();
});

test('when the config changes, then config.updated carries the full document under key config', async () => {
  const bus = new RecordingBus();
  await new BusDomainEvents(bus).configUpdated(defaultSystemConfig());
  const [message] = bus.published;
  assert.equal(message?.topic, 'config.events');
  assert.equal(message?.key, 'config');
  assert.equal(message?.value.type, 'config.updated');
  assert.deepEqual(message?.value.payload.config, defaultSystemConfig());
  await bus.close();
});
