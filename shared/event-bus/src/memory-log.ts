import type { BusMessage } from './ports';

/** One partition's log in the in-process bus, and how its messages are handed to the groups. */

export interface StoredMessage {
  readonly key: string;
  /** The value as JSON: each delivery parses its own copy, as a consumer of a broker would. */
  readonly json: string;
  readonly headers: Readonly<Record<string, string>>;
}

export interface Partition {
  /** Offset of log[0]; messages below it were trimmed once every group had handled them. */
  base: number;
  log: StoredMessage[];
  /**
   * The latest run of consecutive messages parsed for delivery, frozen (`values[i]` is offset `first + i`):
   * the groups of a partition usually handle the same messages one after another (one by one or in
   * batches), so each message is parsed once instead of once per group. At most PARSED_RUN values per
   * partition bounds the memory.
   */
  parsed?: { readonly first: number; readonly values: unknown[] };
}

/** Most parsed values kept per partition for the next group (see `Partition.parsed`). */
const PARSED_RUN = 256;

/** The message's value, parsed and deeply frozen once and handed to every group (handlers only read it). */
export function parsedValue(partition: Partition, offset: number, stored: StoredMessage): unknown {
  const run = partition.parsed;
  if (run && offset >= run.first && offset < run.first + run.values.length) return run.values[offset - run.first];
  const value = deepFreeze(JSON.parse(stored.json) as unknown);
  if (run && offset === run.first + run.values.length && run.values.length < PARSED_RUN) run.values.push(value);
  else partition.parsed = { first: offset, values: [value] };
  return value;
}

/** The stored message at `offset` as a delivery (attempt 1; each delivery gets its own headers object). */
export function firstDelivery(topic: string, partition: number, offset: number, stored: StoredMessage, value: unknown): BusMessage {
  return { topic, partition, offset: String(offset), key: stored.key, value, json: stored.json, headers: { ...stored.headers }, attempt: 1 };
}

/** Freezes `value` and everything in it (a JSON value: plain objects and arrays). */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}
