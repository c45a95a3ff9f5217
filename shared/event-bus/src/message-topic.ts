import type { BusMessage } from './ports';

/**
 * The message under another topic name (a namespace stripped), without reading its value: a bus may decode
 * the value on first read (Kafka), and a copy by spreading would read it at once. `value` and `json` are read
 * from the original when asked.
 */
export function withTopic(message: BusMessage, topic: string): BusMessage {
  const { partition, offset, key, headers, attempt } = message;
  return {
    topic,
    partition,
    offset,
    key,
    headers,
    attempt,
    get value(): unknown {
      return message.value;
    },
    get json(): string | undefined {
      return message.json;
    },
  };
}
