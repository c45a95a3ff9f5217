import { it } from 'node:test';
import assert from 'node:assert/strict';
import { EVENT_TYPE_HEADER, type BusMessage } from '@switchyard/event-bus';
import { createLogger } from '@switchyard/logger';
import type { Deps } from '../../domain/ports';
import { reactionAddedConsumer } from './reaction-added.consumer';

const logger = createLogger({ service: 'incoming-hooks', level: 'error', sink: () => undefined });

function capturing(): { lines: Record<string, unknown>[]; logger: ReturnType<typeof createLogger> } {
  const lines: Record<string, unknown>[] = [];
  return { lines, logger: createLogger({ service: 'incoming-hooks', level: 'warn', sink: (line) => lines.push(line) }) };
}

it('when the event-type header says another type, then the message is skipped without reading its value or any dependency', async () => {
  const handler = reactionAddedConsumer({} as Deps, logger);
  for (const type of ['post.created', 'post.updated', 'reaction.removed']) {
    const message: BusMessage = {
      topic: 'posts.events', partition: 0, offset: '1', key: 'c', headers: { [EVENT_TYPE_HEADER]: type }, attempt: 1,
      get value(): unknown {
        throw new Error('value read');
      },
    };
    await handler(message);
  }
});

it('when there is no header (older messages), then the type is read from the value: other types are skipped, a reaction.added is looked at', async () => {
  const { lines, logger: seen } = capturing();
  const handler = reactionAddedConsumer({} as Deps, seen);
  await handler({ topic: 'posts.events', partition: 0, offset: '1', key: 'c', headers: {}, attempt: 1, value: { type: 'post.created', payload: { nonsense: true } } });
  assert.equal(lines.length, 0, 'skipped without validating');
  await handler({ topic: 'posts.events', partition: 0, offset: '2', key: 'c', headers: {}, attempt: 1, value: { type: 'reaction.added', payload: { nonsense: true } } });
  assert.equal(lines.length, 1, 'validated (and refused: logged)');
  assert.match(JSON.stringify(lines[0]), /reaction event ignored/);
});
