import type { Command } from 'commander';
import type { DeadLetter, DeadLetterAdmin } from '@switchyard/event-bus-kafka';
import type { RawKafkaSettings } from '@switchyard/service-runtime';
import { formatTime, Output, table, type CliIo } from '../output';
import { UsageError } from '../usage-error';
import type { Environment } from '../session';

interface GlobalJson {
  readonly json?: boolean;
}

/**
 * Opens the Kafka dead-letter tool from the same environment the services read (KAFKA_BROKERS, KAFKA_SSL*,
 * KAFKA_SASL_*, KAFKA_NAMESPACE): run it where the services' Secret and ConfigMap are (e.g. `kubectl exec`
 * into a pod, or a Job with the same envFrom). Loaded lazily: the other commands never load kafkajs.
 */
async function openAdmin(env: Environment): Promise<DeadLetterAdmin> {
  const [{ Joi, loadConfig }, { kafkaSettings, kafkaSettingsSchema }, { DeadLetterAdmin: Admin }] = await Promise.all([
    import('@switchyard/config'),
    import('@switchyard/service-runtime'),
    import('@switchyard/event-bus-kafka'),
  ]);
  if (!env.KAFKA_BROKERS) throw new UsageError('KAFKA_BROKERS is not set: the dead-letter commands talk to Kafka directly, with the services\' KAFKA_* settings');
  const schema = Joi.object({ KAFKA_BROKERS: Joi.string().required(), KAFKA_NAMESPACE: Joi.string().allow('').default(''), ...kafkaSettingsSchema });
  let raw: Record<string, unknown>;
  try {
    raw = loadConfig(schema, env as Record<string, string | undefined>) as Record<string, unknown>;
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const { settings, problems } = kafkaSettings({ ...(raw as unknown as RawKafkaSettings), KAFKA_TOPIC_RETENTION_MS: {} });
  if (!settings) throw new UsageError(problems.join('; '));
  return new Admin({
    brokers: String(raw.KAFKA_BROKERS).split(',').map((b) => b.trim()).filter(Boolean),
    clientId: 'switchyardctl',
    namespace: String(raw.KAFKA_NAMESPACE ?? ''),
    ...(settings.ssl ? { ssl: settings.ssl } : {}),
    ...(settings.sasl ? { sasl: settings.sasl } : {}),
  });
}

/** `--topic posts.events` or `posts.events.dlq`, under the namespace; none: every dead-letter topic. */
async function chosenTopics(admin: DeadLetterAdmin, topics: readonly string[], namespace: string): Promise<string[]> {
  if (topics.length === 0) return admin.deadLetterTopics();
  return topics.map((t) => {
    const full = t.startsWith(namespace) ? t : `${namespace}${t}`;
    return full.endsWith('.dlq') ? full : `${full}.dlq`;
  });
}

function parsePosition(raw: string): { partition: number; offset: string } {
  const m = /^(\d{1,5}):(\d{1,19})$/.exec(raw.trim());
  if (!m) throw new UsageError(`--offset "${raw}": expected PARTITION:OFFSET, e.g. 0:42 (from dead-letters list)`);
  return { partition: Number(m[1]), offset: m[2] ?? '0' };
}

const collect = (value: string, previous: string[]): string[] => [...previous, value];

function rows(letters: readonly DeadLetter[]): string[] {
  return table(
    ['DLQ TOPIC', 'PART:OFFSET', 'TIME', 'GROUP', 'ATTEMPTS', 'KEY', 'REPUBLISHED', 'REASON'],
    letters.map((l) => [l.dlqTopic, `${l.partition}:${l.offset}`, formatTime(l.timestamp) ?? '', l.group, String(l.attempts), l.key ?? '', l.republished ? 'yes' : 'no', l.reason.slice(0, 80)]),
  );
}

/** `dead-letters list|republish`: the Kafka adapter's `<topic>.dlq` records (events a consumer gave up on). */
export function registerDeadLetterCommands(program: Command, io: CliIo, env: Environment): void {
  const dead = program
    .command('dead-letters')
    .description('Kafka dead letters (<topic>.dlq): list them, re-publish them to the topic they failed on (uses KAFKA_* from the environment, not the API)');

  const run = async (command: Command, work: (admin: DeadLetterAdmin, out: Output, namespace: string) => Promise<void>): Promise<void> => {
    const out = new Output(io, command.optsWithGlobals<GlobalJson>().json === true);
    const admin = await openAdmin(env);
    try {
      await work(admin, out, env.KAFKA_NAMESPACE ?? '');
    } finally {
      await admin.close();
    }
  };

  dead
    .command('list')
    .description('list dead letters of every dead-letter topic, or of --topic (repeatable)')
    .option('--topic <topic>', 'a topic (posts.events) or its dead-letter topic (posts.events.dlq)', collect, [])
    .option('--limit <n>', 'at most this many per topic, the newest', '100')
    .option('--values', 'also print each record\'s value (JSON text)')
    .action(async (options: { topic: string[]; limit: string; values?: boolean }, command: Command) => {
      const limit = Number(options.limit);
      if (!Number.isInteger(limit) || limit < 1) throw new UsageError('--limit must be a positive integer');
      await run(command, async (admin, out, namespace) => {
        const letters: DeadLetter[] = [];
        for (const topic of await chosenTopics(admin, options.topic, namespace)) letters.push(...(await admin.list(topic, limit)));
        out.result(letters, () => (letters.length === 0 ? ['no dead letters'] : [...rows(letters), ...(options.values ? letters.map((l) => `${l.dlqTopic} ${l.partition}:${l.offset} ${l.value ?? 'null'}`) : [])]));
      });
    });

  dead
    .command('republish')
    .description('re-publish dead letters to the topic they failed on (key, value and headers unchanged, plus x-dlq-republished-from)')
    .requiredOption('--topic <topic>', 'the topic (posts.events) or its dead-letter topic')
    .option('--offset <partition:offset>', 'one record (repeatable), as `dead-letters list` shows it', collect, [])
    .option('--pending', 'every record not re-published by --pending before (a marker consumer group remembers)')
    .action(async (options: { topic: string; offset: string[]; pending?: boolean }, command: Command) => {
      if ((options.offset.length > 0) === (options.pending === true)) throw new UsageError('give --offset PARTITION:OFFSET (repeatable) or --pending, not both');
      const positions = options.offset.map(parsePosition);
      await run(command, async (admin, out, namespace) => {
        const [topic] = await chosenTopics(admin, [options.topic], namespace);
        const done = options.pending ? await admin.republishPending(topic ?? '') : await admin.republish(topic ?? '', positions);
        if (!options.pending && done.length < positions.length) {
          const found = new Set(done.map((l) => `${l.partition}:${l.offset}`));
          const missing = positions.map((p) => `${p.partition}:${p.offset}`).filter((p) => !found.has(p));
          out.note(`not found in ${topic}: ${missing.join(', ')} (expired by retention, or a wrong offset)`);
        }
        out.result(done, () => [`re-published ${done.length} dead letter${done.length === 1 ? '' : 's'} from ${topic}`, ...done.map((l) => `  ${l.partition}:${l.offset} -> ${l.topic}`)]);
        if (!options.pending && done.length < positions.length) throw new UsageError('some offsets were not found');
      });
    });
}
