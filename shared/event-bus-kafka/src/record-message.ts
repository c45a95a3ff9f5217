import type { BusMessage } from '@switchyard/event-bus';
import { decodeValue, type DecodedValue } from './codec';

/** One delivery of a record, and what reading its value found. */
export interface RecordDelivery {
  readonly message: BusMessage;
  /** Decodes the value now (when not yet read); why it is not JSON, or undefined when it is. */
  decode(): string | undefined;
  /** Why the value is not JSON when a read of `value` or `json` found so; undefined otherwise (also when never read). */
  undecodable(): string | undefined;
  /**
   * The handler is done: a value not read yet is copied out of the fetched bytes (a view of the whole fetch
   * response), so a message its handler kept does not keep that response in memory.
   */
  release(): void;
}

/**
 * The handler's view of one delivery of a record. Its value is parsed on the first read of `value` or `json`
 * (once per delivery: a handler that changed it does not see its changes on retry), so a handler that tells
 * the message by its key or headers alone (`EVENT_TYPE_HEADER`) never parses it. A read of a value that is
 * not JSON throws; the delivery then dead-letters the message at once (`undecodable`). ADR 0043.
 */
export function recordDelivery(fields: Omit<BusMessage, 'value' | 'json'>, bytes: Buffer | null): RecordDelivery {
  let raw = bytes;
  let decoded: DecodedValue | undefined;
  const read = (): { readonly value: unknown; readonly json: string } => {
    decoded ??= decodeValue(raw);
    if (!decoded.ok) throw new Error(decoded.reason);
    return decoded;
  };
  const { topic, partition, offset, key, headers, attempt } = fields;
  const message: BusMessage = {
    topic,
    partition,
    offset,
    key,
    headers,
    attempt,
    get value(): unknown {
      return read().value;
    },
    get json(): string {
      return read().json;
    },
  };
  const undecodable = (): string | undefined => (decoded !== undefined && !decoded.ok ? decoded.reason : undefined);
  return {
    message,
    decode: () => {
      decoded ??= decodeValue(raw);
      return undecodable();
    },
    undecodable,
    release: () => {
      if (decoded === undefined && raw !== null) raw = Buffer.from(raw);
    },
  };
}
