import { Joi, loadConfig, serviceEnvSchema, type Env, type ServiceEnv } from '@switchyard/config';

/** The service's environment (only main.ts reads process.env). */
export interface OutgoingDispatchConfig extends ServiceEnv {
  /**
   * Longest pause between two scans for due deliveries (ms). Default 10000: an instance wakes itself at the
   * due time of every retry, wait and redelivery it schedules (wakeAt), so the periodic scan only finds what
   * another instance left (a claim that ran out); on the MongoDB-wire emulators each scan reads the whole
   * delivery log (docs/adr/0017, addendum, session 15).
   */
  readonly DELIVERY_SCAN_INTERVAL_MS?: number;
  /** Deliveries one scan claims at a time. Default 32. */
  readonly DELIVERY_SCAN_BATCH?: number;
  /** Delivery attempts one instance runs at once. Default 64. */
  readonly DELIVERY_CONCURRENCY?: number;
  /** This instance's name in delivery claims; default: host name + random suffix. */
  readonly INSTANCE_ID?: string;
}

export const outgoingDispatchEnvSchema = Joi.object<OutgoingDispatchConfig>({
  ...serviceEnvSchema('outgoing-dispatch', 8069),
  DELIVERY_SCAN_INTERVAL_MS: Joi.number().integer().min(10).max(600_000).default(10_000).description('Longest pause between two scans for due deliveries (ms)'),
  DELIVERY_SCAN_BATCH: Joi.number().integer().min(1).max(1000).default(32).description('Deliveries one scan claims at a time'),
  DELIVERY_CONCURRENCY: Joi.number().integer().min(1).max(10_000).default(64).description('Delivery attempts one instance runs at once'),
  INSTANCE_ID: Joi.string().max(128).description('Name of this instance in delivery claims (default: host name and a random suffix)'),
});

/** Validates the env (every problem at once) into the typed config. */
export function loadOutgoingDispatchConfig(env: Env): Readonly<OutgoingDispatchConfig> {
  return loadConfig(outgoingDispatchEnvSchema, env);
}
