import type { ObjectSchema, Schema } from 'joi';
import { Joi } from '@switchyard/validation';
import { COLLAPSED_THREADS_MODES, defaultSystemConfig, INCOMING_WEBHOOK_ACK_MODES, SIGNING_ALGORITHMS, type SystemConfig } from './defaults';

/** A joi schema derived from the defaults: every known key must keep its JSON type (null = not set, the shared rule); unknown keys are dropped. */
function schemaFor(value: unknown): Schema {
  if (Array.isArray(value)) return Joi.array().items(Joi.number().min(0));
  if (typeof value === 'boolean') return Joi.boolean();
  if (typeof value === 'number') return Joi.number();
  if (typeof value === 'string') return Joi.string().allow('').max(4096);
  if (value && typeof value === 'object') {
    const keys: Record<string, Schema> = {};
    for (const [k, v] of Object.entries(value)) keys[k] = schemaFor(v);
    return Joi.object(keys).unknown(true);
  }
  return Joi.any();
}

export const systemConfigPatchSchema: ObjectSchema = (schemaFor(defaultSystemConfig()) as ObjectSchema).unknown(true);

/** Range rules beyond types, as `model.config.is_valid.*` ids. Returns the first failure. */
export function configRangeProblem(config: SystemConfig): { id: string; message: string } | undefined {
  const s = config.ServiceSettings;
  const r = config.RateLimitSettings;
  const d = config.DeliverySettings;
  if (s.MaximumPayloadSizeBytes <= 0) return { id: 'model.config.is_valid.max_payload_size.app_error', message: 'Invalid max payload size.' };
  if (s.MaximumLoginAttempts <= 0) return { id: 'model.config.is_valid.login_attempts.app_error', message: 'Invalid maximum login attempts for service settings.  Must be a positive number.' };
  if (s.OutgoingIntegrationRequestsTimeout <= 0) return { id: 'model.config.is_valid.outgoing_integrations_request_timeout.app_error', message: 'Invalid outgoing integrations request timeout.' };
  if (!(INCOMING_WEBHOOK_ACK_MODES as readonly string[]).includes(s.IncomingWebhookAckMode)) {
    return { id: 'model.config.is_valid.incoming_webhook_ack_mode.app_error', message: `IncomingWebhookAckMode must be one of: ${INCOMING_WEBHOOK_ACK_MODES.join(', ')}.` };
  }
  if (!(COLLAPSED_THREADS_MODES as readonly string[]).includes(s.CollapsedThreads)) {
    return { id: 'model.config.is_valid.collapsed_threads.app_error', message: 'The CollapsedThreads setting must be either disabled, default_on, default_off or always_on' };
  }
  if (config.TeamSettings.UserStatusAwayTimeout <= 0) return { id: 'model.config.is_valid.user_status_away_timeout.app_error', message: 'Invalid user status away timeout. Must be a positive number.' };
  if (!(SIGNING_ALGORITHMS as readonly string[]).includes(s.IntegrationSigningAlgorithm)) {
    return { id: 'model.config.is_valid.integration_signing_algorithm.app_error', message: `IntegrationSigningAlgorithm must be one of: ${SIGNING_ALGORITHMS.join(', ')}.` };
  }
  const f = config.FileSettings;
  if (f.MaxFileSize <= 0) return { id: 'model.config.is_valid.max_file_size.app_error', message: 'Invalid max file size for file settings.  Must be a whole number greater than zero.' };
  if (f.DriverName !== 'local' && f.DriverName !== 'amazons3' && f.DriverName !== '') return { id: 'model.config.is_valid.file_driver.app_error', message: 'Invalid driver name for file settings.  Must be \'local\' or \'amazons3\'.' };
  if (f.DriverName === 'local' && f.Directory === '') return { id: 'model.config.is_valid.directory.app_error', message: 'Invalid Local Storage Directory. Must be a non-empty string.' };
  if (f.PublicLinkSalt !== '' && f.PublicLinkSalt.length < 32) return { id: 'model.config.is_valid.file_salt.app_error', message: 'Invalid public link salt for file settings.  Must be 32 chars or more.' };
  if (r.PerSec <= 0) return { id: 'model.config.is_valid.rate_sec.app_error', message: 'Invalid per sec for rate limit settings.' };
  if (r.MaxBurst <= 0) return { id: 'model.config.is_valid.max_burst.app_error', message: 'Invalid max burst for rate limit settings.' };
  if (r.MemoryStoreSize <= 0) return { id: 'model.config.is_valid.rate_mem.app_error', message: 'Invalid memory store size for rate limit settings.' };
  if (r.IncomingWebhookPerSec < 0 || r.IncomingWebhookMaxBurst < 0) return { id: 'model.config.is_valid.rate_sec.app_error', message: 'Invalid incoming webhook rate limit.' };
  if (!(r.OutgoingWebhookPerSec >= 0 && r.OutgoingWebhookPerSec <= 100_000) || !(r.OutgoingWebhookMaxBurst >= 0 && r.OutgoingWebhookMaxBurst <= 1_000_000)) {
    return { id: 'model.config.is_valid.rate_sec.app_error', message: 'Invalid outgoing webhook rate limit: OutgoingWebhookPerSec 0-100000, OutgoingWebhookMaxBurst 0-1000000.' };
  }
  if (config.PasswordSettings.MinimumLength < 5 || config.PasswordSettings.MinimumLength > 72) return { id: 'model.config.is_valid.password_length.app_error', message: 'Minimum password length must be between 5 and 72.' };
  const retention = config.EventSettings.RetentionHours;
  if (retention < 0 || retention > 8760) return { id: 'model.config.is_valid.event_retention_hours.app_error', message: 'EventSettings.RetentionHours must be between 0 and 8760.' };
  if (d.JitterPercent < 0 || d.JitterPercent > 100) return { id: 'model.config.is_valid.delivery_jitter.app_error', message: 'JitterPercent must be between 0 and 100.' };
  if (d.BreakerErrorPercent <= 0 || d.BreakerErrorPercent > 100) return { id: 'model.config.is_valid.delivery_breaker.app_error', message: 'BreakerErrorPercent must be between 1 and 100.' };
  if (!Number.isInteger(d.DisableAfterDeadDeliveries) || d.DisableAfterDeadDeliveries < 0 || d.DisableAfterDeadDeliveries > 10_000) {
    return { id: 'model.config.is_valid.delivery_disable_after_dead.app_error', message: 'DisableAfterDeadDeliveries must be a whole number between 0 and 10000.' };
  }
  if (!(d.OrderHoldSeconds >= 0 && d.OrderHoldSeconds <= 604_800)) return { id: 'model.config.is_valid.delivery_order_hold.app_error', message: 'OrderHoldSeconds must be between 0 and 604800.' };
  return undefined;
}
