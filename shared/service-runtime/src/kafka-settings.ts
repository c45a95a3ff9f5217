import { readFileSync } from 'node:fs';
import type { KafkaSaslOptions, KafkaTlsOptions } from '@switchyard/event-bus-kafka';
import { Joi } from '@switchyard/config';

/** The Kafka connection and topic settings of the environment, as the adapter takes them. */
export interface KafkaSettings {
  /** TLS to the brokers (KAFKA_SSL or any KAFKA_SSL_* file); undefined = plaintext. */
  readonly ssl?: true | KafkaTlsOptions;
  readonly sasl?: KafkaSaslOptions;
  /** -1 = the broker's default.replication.factor. */
  readonly replicationFactor: number;
  readonly minInsyncReplicas?: number;
  readonly retentionMs: Readonly<Record<string, number>>;
  readonly defaultRetentionMs: number;
  readonly deadLetterRetentionMs: number;
}

const DAY_MS = 86_400_000;

/** Env keys of Kafka security and topic settings (joined into the runtime schema). */
export const kafkaSettingsSchema = {
  KAFKA_SSL: Joi.boolean().default(false).description('TLS to the brokers with the system CAs (implied by any KAFKA_SSL_*_FILE)'),
  KAFKA_SSL_CA_FILE: Joi.string().empty('').description('PEM file of the CA(s) that signed the brokers\' certificates (private CA, Strimzi cluster CA)'),
  KAFKA_SSL_CERT_FILE: Joi.string().empty('').description('PEM client certificate for mutual TLS (with KAFKA_SSL_KEY_FILE)'),
  KAFKA_SSL_KEY_FILE: Joi.string().empty('').description('PEM private key of the client certificate'),
  KAFKA_SSL_KEY_PASSWORD: Joi.string().empty('').description('Passphrase of KAFKA_SSL_KEY_FILE, if encrypted'),
  KAFKA_SSL_SERVERNAME: Joi.string().empty('').description('Name to check in the brokers\' certificates when it differs from the bootstrap host'),
  KAFKA_SSL_REJECT_UNAUTHORIZED: Joi.boolean().default(true).description('Verify the brokers\' certificates (false only for throwaway test clusters)'),
  KAFKA_SASL_MECHANISM: Joi.string().lowercase().valid('plain', 'scram-sha-256', 'scram-sha-512').description('SASL mechanism: plain, scram-sha-256 or scram-sha-512'),
  KAFKA_SASL_USERNAME: Joi.string().empty('').description('SASL user name'),
  KAFKA_SASL_PASSWORD: Joi.string().empty('').description('SASL password (from a Secret)'),
  KAFKA_REPLICATION_FACTOR: Joi.number().integer().min(-1).invalid(0).default(-1).description('Replication factor of topics this process creates (-1 = broker default; production 3)'),
  KAFKA_MIN_INSYNC_REPLICAS: Joi.number().integer().min(1).description('min.insync.replicas of topics this process creates (production 2)'),
  KAFKA_DEFAULT_RETENTION_MS: Joi.number().integer().min(-1).default(7 * DAY_MS).description('retention.ms of created topics not listed in KAFKA_TOPIC_RETENTION_MS (default 7 days)'),
  KAFKA_DLQ_RETENTION_MS: Joi.number().integer().min(-1).default(30 * DAY_MS).description('retention.ms of created dead-letter (.dlq) topics (default 30 days)'),
};

export interface RawKafkaSettings {
  readonly KAFKA_SSL: boolean;
  readonly KAFKA_SSL_CA_FILE?: string;
  readonly KAFKA_SSL_CERT_FILE?: string;
  readonly KAFKA_SSL_KEY_FILE?: string;
  readonly KAFKA_SSL_KEY_PASSWORD?: string;
  readonly KAFKA_SSL_SERVERNAME?: string;
  readonly KAFKA_SSL_REJECT_UNAUTHORIZED: boolean;
  readonly KAFKA_SASL_MECHANISM?: KafkaSaslOptions['mechanism'];
  readonly KAFKA_SASL_USERNAME?: string;
  readonly KAFKA_SASL_PASSWORD?: string;
  readonly KAFKA_REPLICATION_FACTOR: number;
  readonly KAFKA_MIN_INSYNC_REPLICAS?: number;
  readonly KAFKA_TOPIC_RETENTION_MS: Readonly<Record<string, number>>;
  readonly KAFKA_DEFAULT_RETENTION_MS: number;
  readonly KAFKA_DLQ_RETENTION_MS: number;
}

/** Reads the PEM files and checks the combinations; problems are returned, never thrown. */
export function kafkaSettings(raw: RawKafkaSettings, read: (path: string) => string = (p) => readFileSync(p, 'utf8')): { settings?: KafkaSettings; problems: string[] } {
  const problems: string[] = [];
  const file = (key: 'KAFKA_SSL_CA_FILE' | 'KAFKA_SSL_CERT_FILE' | 'KAFKA_SSL_KEY_FILE'): string | undefined => {
    const path = raw[key];
    if (path === undefined) return undefined;
    try {
      const text = read(path);
      if (!text.includes('-----BEGIN ')) problems.push(`${key}: ${path} is not a PEM file`);
      return text;
    } catch (error) {
      problems.push(`${key}: cannot read ${path}: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    }
  };
  const ca = file('KAFKA_SSL_CA_FILE');
  const cert = file('KAFKA_SSL_CERT_FILE');
  const key = file('KAFKA_SSL_KEY_FILE');
  if ((raw.KAFKA_SSL_CERT_FILE === undefined) !== (raw.KAFKA_SSL_KEY_FILE === undefined)) {
    problems.push('KAFKA_SSL_CERT_FILE and KAFKA_SSL_KEY_FILE: give both (mutual TLS) or neither');
  }
  const tls: KafkaTlsOptions = {
    ...(ca !== undefined ? { ca } : {}),
    ...(cert !== undefined ? { cert } : {}),
    ...(key !== undefined ? { key } : {}),
    ...(raw.KAFKA_SSL_KEY_PASSWORD !== undefined ? { passphrase: raw.KAFKA_SSL_KEY_PASSWORD } : {}),
    ...(raw.KAFKA_SSL_SERVERNAME !== undefined ? { servername: raw.KAFKA_SSL_SERVERNAME } : {}),
    ...(raw.KAFKA_SSL_REJECT_UNAUTHORIZED ? {} : { rejectUnauthorized: false }),
  };
  const ssl = Object.keys(tls).length > 0 ? tls : raw.KAFKA_SSL ? true : undefined;
  let sasl: KafkaSaslOptions | undefined;
  const { KAFKA_SASL_MECHANISM: mechanism, KAFKA_SASL_USERNAME: username, KAFKA_SASL_PASSWORD: password } = raw;
  if (mechanism !== undefined) {
    if (username === undefined || password === undefined) problems.push('KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD: required with KAFKA_SASL_MECHANISM');
    else sasl = { mechanism, username, password };
  } else if (username !== undefined || password !== undefined) {
    problems.push('KAFKA_SASL_MECHANISM: required with KAFKA_SASL_USERNAME/KAFKA_SASL_PASSWORD (plain, scram-sha-256 or scram-sha-512)');
  }
  if (raw.KAFKA_MIN_INSYNC_REPLICAS !== undefined && raw.KAFKA_REPLICATION_FACTOR !== -1 && raw.KAFKA_MIN_INSYNC_REPLICAS > raw.KAFKA_REPLICATION_FACTOR) {
    problems.push(`KAFKA_MIN_INSYNC_REPLICAS: ${raw.KAFKA_MIN_INSYNC_REPLICAS} is more than KAFKA_REPLICATION_FACTOR ${raw.KAFKA_REPLICATION_FACTOR}: every publish would fail`);
  }
  if (problems.length > 0) return { problems };
  return {
    settings: {
      ...(ssl !== undefined ? { ssl } : {}),
      ...(sasl ? { sasl } : {}),
      replicationFactor: raw.KAFKA_REPLICATION_FACTOR,
      ...(raw.KAFKA_MIN_INSYNC_REPLICAS !== undefined ? { minInsyncReplicas: raw.KAFKA_MIN_INSYNC_REPLICAS } : {}),
      retentionMs: raw.KAFKA_TOPIC_RETENTION_MS,
      defaultRetentionMs: raw.KAFKA_DEFAULT_RETENTION_MS,
      deadLetterRetentionMs: raw.KAFKA_DLQ_RETENTION_MS,
    },
    problems: [],
  };
}
