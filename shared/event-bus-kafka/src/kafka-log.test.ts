import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { logLevel } from 'kafkajs';
import { kafkaLogCreator, routeKafkaLog, toKafkaLogLevel, type KafkaEventBusLogger } from './kafka-log';

describe('kafkajs log routing', () => {
  it('when kafkajs logs a rebalance error response, then it is only info', () => {
    const route = routeKafkaLog('Connection', logLevel.ERROR, 'Response Heartbeat(key: 12, version: 3)', 'The group is rebalancing, so a rejoin is needed');
    assert.equal(route, 'info');
  });

  it('when kafkajs logs another error response, then it is a warning', () => {
    assert.equal(routeKafkaLog('Connection', logLevel.ERROR, 'Response GroupCoordinator(key: 10, version: 2)', 'The group coordinator is not available'), 'warn');
  });

  it('when kafkajs logs an error of its own, then it stays an error', () => {
    assert.equal(routeKafkaLog('Consumer', logLevel.ERROR, 'Crash: KafkaJSNumberOfRetriesExceeded'), 'error');
    assert.equal(routeKafkaLog('Runner', logLevel.WARN, 'The group is rebalancing, re-joining'), 'warn');
    assert.equal(routeKafkaLog('Consumer', logLevel.DEBUG, 'x'), 'info');
    assert.equal(routeKafkaLog('Consumer', logLevel.NOTHING, 'x'), 'none');
  });

  it('when a line is logged, then the injected logger gets the message and the extra fields', () => {
    const lines: [string, string, Record<string, unknown> | undefined][] = [];
    const logger: KafkaEventBusLogger = {
      error: (m, meta) => void lines.push(['error', m, meta]),
      warn: (m, meta) => void lines.push(['warn', m, meta]),
      info: (m, meta) => void lines.push(['info', m, meta]),
    };
    const log = kafkaLogCreator(logger)(logLevel.INFO);
    log({ namespace: 'Runner', level: logLevel.ERROR, label: 'ERROR', log: { message: 'Crash', timestamp: 'now', groupId: 'g' } });
    assert.deepEqual(lines, [['error', 'kafkajs: Crash', { component: 'kafkajs', namespace: 'Runner', groupId: 'g' }]]);
  });

  it('when a level name is given, then it maps to the kafkajs level', () => {
    assert.deepEqual(
      (['nothing', 'error', 'warn', 'info', 'debug'] as const).map(toKafkaLogLevel),
      [logLevel.NOTHING, logLevel.ERROR, logLevel.WARN, logLevel.INFO, logLevel.DEBUG],
    );
  });
});
