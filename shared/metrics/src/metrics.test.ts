import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deliveryMetrics, intakeMetrics, kafkaMetrics, metricsRegistry, observeHttpRequest, parseListenAddress, startMetricsServer, statusClass } from './index';

test('when MetricsSettings.ListenAddress forms are parsed, then host and port come out', () => {
  assert.deepEqual(parseListenAddress(':8067'), { host: '0.0.0.0', port: 8067 });
  assert.deepEqual(parseListenAddress('127.0.0.1:9000'), { host: '127.0.0.1', port: 9000 });
  assert.deepEqual(parseListenAddress('[::1]:9000'), { host: '::1', port: 9000 });
  assert.deepEqual(parseListenAddress('8067'), { host: '0.0.0.0', port: 8067 });
  assert.throws(() => parseListenAddress('host:port'));
  assert.throws(() => parseListenAddress(':70000'));
});

test('when statuses are classed, then no answer is error and others are their hundred', () => {
  assert.deepEqual([statusClass(undefined), statusClass(0), statusClass(204), statusClass(429), statusClass(503)], ['error', 'error', '2xx', '4xx', '5xx']);
});

test('when the metrics listener is scraped, then /metrics answers the text format with the counters and anything else is 404', async () => {
  const server = await startMetricsServer(0, '127.0.0.1');
  try {
    observeHttpRequest('svc-test', '/api/v4/users/:user_id', 'GET', 200, 0.01);
    observeHttpRequest('svc-test', '/api/v4/users/:user_id', 'BREW', 418, 0.01);
    intakeMetrics.accepted();
    intakeMetrics.refused('unknown_hook');
    deliveryMetrics.attempt('retry', 503, 0.2);
    const res = await fetch(server.url);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /text\/plain/);
    const text = await res.text();
    assert.match(text, /switchyard_http_request_duration_seconds_count\{service="svc-test",route="\/api\/v4\/users\/:user_id",method="GET",status_code="200"\} 1/);
    assert.match(text, /method="OTHER",status_code="418"/);
    assert.match(text, /switchyard_incoming_webhooks_total\{result="refused",reason="unknown_hook"\} 1/);
    assert.match(text, /switchyard_outgoing_delivery_attempts_total\{outcome="retry",status_class="5xx"\} 1/);
    assert.match(text, /nodejs_eventloop_lag_seconds/);
    assert.equal((await fetch(server.url.replace('/metrics', '/'))).status, 404);
  } finally {
    await server.close();
  }
});

test('when a consumer group rebalances, then its old lag figures are forgotten', async () => {
  kafkaMetrics.lag('t1', 0, 'g-lag', 5);
  kafkaMetrics.lag('t1', 1, 'g-lag', 7);
  kafkaMetrics.lag('t1', 0, 'g-other', 3);
  const lagOf = async (): Promise<string> => (await metricsRegistry().getSingleMetricAsString('switchyard_kafka_consumer_lag'));
  assert.match(await lagOf(), /group="g-lag"\} 7/);
  kafkaMetrics.forgetLag('g-lag');
  const after = await lagOf();
  assert.doesNotMatch(after, /g-lag/);
  assert.match(after, /group="g-other"\} 3/);
});

test('when messages are consumed, then each scrape shows their running count per topic, group and outcome', async () => {
  const countOf = async (): Promise<string> => (await metricsRegistry().getSingleMetricAsString('switchyard_kafka_messages_consumed_total'));
  kafkaMetrics.consumed('t-count', 'g-count', 'ok');
  kafkaMetrics.consumed('t-count', 'g-count', 'ok', 4);
  kafkaMetrics.consumed('t-count', 'g-count', 'dead_lettered');
  assert.match(await countOf(), /topic="t-count",group="g-count",outcome="ok"\} 5/);
  kafkaMetrics.consumed('t-count', 'g-count', 'ok', 2);
  const again = await countOf();
  assert.match(again, /topic="t-count",group="g-count",outcome="ok"\} 7/, 'counted once per message across scrapes');
  assert.match(again, /outcome="dead_lettered"\} 1/);
});

test('when a partition lag changes between scrapes, then the scrape shows the latest figure', async () => {
  const lagOf = async (): Promise<string> => (await metricsRegistry().getSingleMetricAsString('switchyard_kafka_consumer_lag'));
  kafkaMetrics.lag('t-latest', 2, 'g-latest', 9);
  kafkaMetrics.lag('t-latest', 2, 'g-latest', 4);
  assert.match(await lagOf(), /partition="2",group="g-latest"\} 4/);
  kafkaMetrics.lag('t-latest', 2, 'g-latest', -3);
  assert.match(await lagOf(), /partition="2",group="g-latest"\} 0/, 'never negative');
});
