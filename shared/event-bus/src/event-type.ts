import type { BusMessage } from './ports';

/**
 * Header with the value's `type` (every envelope has one), written by buses whose consumers decode values
 * (Kafka) on publish: a consumer that wants a few types tells the others by this header alone, without
 * decoding their value. The in-process bus hands values over decoded and writes none. ADR 0043.
 */
export const EVENT_TYPE_HEADER = 'event-type';

/** The value's `type` when it is a string (an envelope's), else undefined. */
export function typeOfValue(value: unknown): string | undefined {
  const type = typeof value === 'object' && value !== null ? (value as { type?: unknown }).type : undefined;
  return typeof type === 'string' ? type : undefined;
}

/**
 * The message's envelope type: its `EVENT_TYPE_HEADER` when the bus wrote one, else the value's `type`
 * (messages published without the header, the in-process bus), which reads (on Kafka: decodes) the value.
 */
export function eventTypeOf(message: BusMessage): string | undefined {
  return message.headers[EVENT_TYPE_HEADER] ?? typeOfValue(message.value);
}
