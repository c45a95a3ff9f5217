import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyConfigPatch, configRangeProblem, defaultSystemConfig, replaceConfig, sanitizeConfig, SECRET_MASK, systemConfigPatchSchema } from './index';

test('when a patch sets one key, then the others keep their values and unknown keys are dropped', () => {
  const next = applyConfigPatch(defaultSystemConfig(), { ServiceSettings: { EnableBotAccountCreation: true, Bogus: 1 }, Nope: {} });
  assert.equal(next.ServiceSettings.EnableBotAccountCreation, true);
  assert.equal(next.ServiceSettings.EnableIncomingWebhooks, true);
  assert.equal((next as unknown as Record<string, unknown>).Nope, undefined);
  assert.equal((next.ServiceSettings as unknown as Record<string, unknown>).Bogus, undefined);
});

test('when a secret is set, then GET shows it masked and a PUT of the mask keeps it', () => {
  const withSecret = applyConfigPatch(defaultSystemConfig(), { ServiceSettings: { IntegrationSigningSecret: 'whsec_abc' } });
  const shown = sanitizeConfig(withSecret);
  assert.equal(shown.ServiceSettings.IntegrationSigningSecret, SECRET_MASK);
  const replaced = replaceConfig(withSecret, shown as unknown as Record<string, unknown>);
  assert.equal(replaced.ServiceSettings.IntegrationSigningSecret, 'whsec_abc');
});

test('when a key has the wrong JSON type, then the patch schema refuses it', () => {
  const { error } = systemConfigPatchSchema.validate({ ServiceSettings: { EnableBotAccountCreation: 'yes' } }, { convert: false });
  assert.ok(error);
  assert.equal(systemConfigPatchSchema.validate({ RateLimitSettings: { PerSec: 5 } }, { convert: false }).error, undefined);
});

test('when IncomingWebhookAckMode is stored, queued or anything else, then the default is stored and only the two modes pass the range rules', () => {
  assert.equal(defaultSystemConfig().ServiceSettings.IncomingWebhookAckMode, 'stored');
  assert.equal(configRangeProblem(applyConfigPatch(defaultSystemConfig(), { ServiceSettings: { IncomingWebhookAckMode: 'queued' } })), undefined);
  assert.equal(configRangeProblem(applyConfigPatch(defaultSystemConfig(), { ServiceSettings: { IncomingWebhookAckMode: 'later' } }))?.id, 'model.config.is_valid.incoming_webhook_ack_mode.app_error');
});

test('when DisableAfterDeadDeliveries is 0, 10 or 10000 it passes; negative, fractional or above 10000 it is refused', () => {
  assert.equal(defaultSystemConfig().DeliverySettings.DisableAfterDeadDeliveries, 10);
  for (const ok of [0, 10, 10_000]) assert.equal(configRangeProblem(applyConfigPatch(defaultSystemConfig(), { DeliverySettings: { DisableAfterDeadDeliveries: ok } })), undefined, String(ok));
  for (const bad of [-1, 2.5, 10_001]) {
    assert.equal(configRangeProblem(applyConfigPatch(defaultSystemConfig(), { DeliverySettings: { DisableAfterDeadDeliveries: bad } }))?.id, 'model.config.is_valid.delivery_disable_after_dead.app_error', String(bad));
  }
});

test('when the outgoing webhook rate limit is 0 (the default: off) or positive it passes; negative is refused', () => {
  assert.equal(defaultSystemConfig().RateLimitSettings.OutgoingWebhookPerSec, 0);
  assert.equal(defaultSystemConfig().RateLimitSettings.OutgoingWebhookMaxBurst, 0);
  assert.equal(configRangeProblem(applyConfigPatch(defaultSystemConfig(), { RateLimitSettings: { OutgoingWebhookPerSec: 50, OutgoingWebhookMaxBurst: 100 } })), undefined);
  assert.equal(configRangeProblem(applyConfigPatch(defaultSystemConfig(), { RateLimitSettings: { OutgoingWebhookPerSec: 0, OutgoingWebhookMaxBurst: 0 } })), undefined);
  assert.equal(configRangeProblem(applyConfigPatch(defaultSystemConfig(), { RateLimitSettings: { OutgoingWebhookPerSec: -1 } }))?.id, 'model.config.is_valid.rate_sec.app_error');
  assert.equal(configRangeProblem(applyConfigPatch(defaultSystemConfig(), { RateLimitSettings: { OutgoingWebhookMaxBurst: -5 } }))?.id, 'model.config.is_valid.rate_sec.app_error');
});

test('when OrderHoldSeconds is 0 to 604800 it passes (default 3600); outside it is refused', () => {
  assert.equal(defaultSystemConfig().DeliverySettings.OrderHoldSeconds, 3600);
  assert.equal(configRangeProblem(applyConfigPatch(defaultSystemConfig(), { DeliverySettings: { OrderHoldSeconds: 0 } })), undefined);
  for (const bad of [-1, 604_801]) assert.equal(configRangeProblem(applyConfigPatch(defaultSystemConfig(), { DeliverySettings: { OrderHoldSeconds: bad } }))?.id, 'model.config.is_valid.delivery_order_hold.app_error');
});
