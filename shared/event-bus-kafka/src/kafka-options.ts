import type { BusMessage } from '@switchyard/event-bus';
import type { KafkaEventBusLogger, KafkaLogLevel } from './kafka-log';

/** TLS to the brokers: `true` = system CAs; PEM strings for a private CA and a client certificate (mTLS). */
export interface KafkaTlsOptions {
  readonly ca?: string;
  readonly cert?: string;
  readonly key?: string;
  readonly passphrase?: string;
  /** SNI / certificate name when it differs from the bootstrap host. */
  readonly servername?: string;
  /** Default true; false only for a throwaway test cluster. */
  readonly rejectUnauthorized?: boolean;
}

/** SASL authentication (over TLS in production). */
export interface KafkaSaslOptions {
  readonly mechanism: 'plain' | 'scram-sha-256' | 'scram-sha-512';
  readonly username: string;
  readonly password: string;
}

export interface KafkaEventBusOptions {
  /** `host:port` of one or more brokers (bootstrap list). */
  readonly brokers: readonly string[];
  readonly ssl?: boolean | KafkaTlsOptions;
  readonly sasl?: KafkaSaslOptions;
  /** Client id sent to the broker (shows in broker logs and quotas); the service name is a good one. */
  readonly clientId: string;
  readonly logger?: KafkaEventBusLogger;
  /** Level of kafkajs' own lines sent to `logger`. Default `warn`. */
  readonly kafkaLogLevel?: KafkaLogLevel;
  /** Partitions per topic used by `ensureTopics` when no count is passed; others get `defaultPartitions`. */
  readonly partitions?: Readonly<Record<string, number>>;
  /** Default 3. */
  readonly defaultPartitions?: number;
  /** Replication factor of topics created by `ensureTopics`. Default: the broker's `default.replication.factor`. */
  readonly replicationFactor?: number;
  /** `min.insync.replicas` of topics created by `ensureTopics`. Default: the broker's. */
  readonly minInsyncReplicas?: number;
  /** `retention.ms` per topic created by `ensureTopics` (-1 = forever); others get `defaultRetentionMs`. */
  readonly retentionMs?: Readonly<Record<string, number>>;
  /** Default: the broker's `log.retention.*`. */
  readonly defaultRetentionMs?: number;
  /** Delay before redelivering a failed message: attempt × this, capped at `maxRetryDelayMs`. Default 100 ms. */
  readonly retryDelayMs?: number;
  /** Default 2000 ms. */
  readonly maxRetryDelayMs?: number;
  /** A member silent this long is dropped from its group. Default 10 000 ms. */
  readonly sessionTimeoutMs?: number;
  /** How long the broker waits for members to rejoin during a rebalance. Default 30 000 ms. */
  readonly rebalanceTimeoutMs?: number;
  /** Default 1000 ms (must stay well below `sessionTimeoutMs`). */
  readonly heartbeatIntervalMs?: number;
  /**
   * Long-poll time of an idle fetch (the broker answers at once when a message arrives, so it adds no
   * latency). An idle member sends a fetch and, at most every `heartbeatIntervalMs`, a heartbeat once per
   * this long, so it also bounds how fast an idle member notices a rebalance and how long `stop()` waits
   * for the fetch in flight; keep it well below `sessionTimeoutMs` (heartbeats go out between fetches).
   * Default 3000 ms (ADR 0017).
   */
  readonly maxWaitTimeMs?: number;
  /**
   * Handled offsets of a member are committed together (one request for all its partitions) at most this
   * long after the first of them was handled, and at once when it stops or a rebalance is noticed during a
   * batch. A crash redelivers at most this much handling. Default 250 ms.
   */
  readonly commitIntervalMs?: number;
  /**
   * A member that got messages fetches again at the earliest this long after its previous fetch returned:
   * a busy member takes several messages per fetch request instead of one (the broker's minBytes/maxWait
   * cannot do this without also making idle members poll that often). Adds at most this much latency per
   * consumer hop. 0 = fetch again at once. Default 5 ms.
   */
  readonly fetchLingerMs?: number;
  /** Partitions of one subscription handled in parallel (each still one message at a time). Default 1. */
  readonly partitionsConsumedConcurrently?: number;
  /** Default 3000 ms. */
  readonly connectionTimeoutMs?: number;
  /** Default 30 000 ms. */
  readonly requestTimeoutMs?: number;
  /**
   * Called for every request a client of this bus sends to a broker (kafkajs' REQUEST event): what a
   * publish or a message costs the brokers, e.g. for a requests counter or `scripts/bench-support/bus-fanout.ts`.
   */
  readonly onRequest?: (request: KafkaRequestInfo) => void;
  /** Called for every failed delivery attempt (after it was logged). */
  readonly onHandlerError?: (error: unknown, message: BusMessage) => void;
  /**
   * Whether a handler's failure means a dependency is down for now (the store unreachable): such a failure is
   * retried (attempt × `retryDelayMs`, capped at `maxRetryDelayMs`) without spending one of `maxAttempts`, so an
   * outage holds the partition instead of dead-lettering its messages. Default: no failure is transient.
   */
  readonly isTransientError?: (error: unknown) => boolean;
}

/** One request to a broker: which client sent it (the producer, or the consumer of `groupId`) and its API. */
export interface KafkaRequestInfo {
  readonly client: 'producer' | 'consumer';
  readonly groupId?: string;
  /** Kafka API name: Produce, Fetch, OffsetCommit, Heartbeat, Metadata, ... */
  readonly api: string;
}

export interface TopicSpec {
  readonly topic: string;
  readonly partitions?: number;
  /** `retention.ms` when created; default from the options. */
  readonly retentionMs?: number;
}
