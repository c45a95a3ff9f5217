import { describe } from 'node:test';
import { randomBytes } from 'node:crypto';
import { buildInfra, loadRuntimeConfig } from '@switchyard/service-runtime';
import { clientEventsContract } from '../contracts/client-events.contract';
import { BusClientEvents } from './bus-publishers';

const brokers = process.env.KAFKA_BROKERS;

// BusClientEvents on real Kafka, in a namespace of this run (its own topics and groups).
describe('ClientEvents on Kafka', { skip: !brokers && 'KAFKA_BROKERS not set: run deploy/local/up.sh' }, () => {
  clientEventsContract('bus, Kafka', async () => {
    const { config, problems } = loadRuntimeConfig({ KAFKA_BROKERS: brokers, KAFKA_NAMESPACE: `ceit${randomBytes(4).toString('hex')}.`, LOG_LEVEL: 'error', KAFKA_LOG_LEVEL: 'nothing' }, 'client-events-it', 0);
    if (!config) throw new Error(problems.join('; '));
    const infra = await buildInfra('client-events-it', config);
    return { events: new BusClientEvents(infra.bus), bus: infra.bus, cleanup: () => infra.close() };
  });
});
