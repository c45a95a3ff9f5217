import { newId } from '@switchyard/ids';
import type { Delivery, OutgoingHook } from '../../domain/entities';

let clock = 1_700_000_000_000;
const tick = (): number => (clock += 1);

export function aHook(overrides: Partial<OutgoingHook> = {}): OutgoingHook {
  const now = tick();
  return {
    id: newId(), token: newId(), createAt: now, updateAt: now, deleteAt: 0, creatorId: newId(), channelId: '', teamId: newId(),
    triggerWords: ['go'], triggerWhen: 0, callbackUrls: ['http://example.com/cb'], displayName: 'd', description: '', contentType: '',
    username: '', iconUrl: '', signingSecret: 'whsec_abc', previousSigningSecret: '', previousSecretExpiresAt: 0, disabledAt: 0,
    signingAlgorithm: 'hmac-sha256', signingKey: '', previousSigningKey: '', eventTypes: ['posted'], botUserId: '',
    ...overrides,
  };
}

export function aDelivery(overrides: Partial<Delivery> = {}): Delivery {
  const now = tick();
  return {
    id: newId(), hookId: newId(), postId: newId(), channelId: newId(), threadRootId: newId(), url: 'http://example.com/cb', contentType: 'application/json',
    body: '{"a":1}', status: 'pending', attempts: 0, tries: 0, lastStatusCode: 0, lastError: '', lastLatencyMs: 0, createAt: now, updateAt: now,
    nextAttemptAt: now, claimedBy: '', claimUntil: 0,
    ...overrides,
  };
}
