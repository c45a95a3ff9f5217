import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTelemetry, telemetryWanted } from './index';

test('when no OTEL variable chooses an exporter, then tracing stays off', () => {
  assert.equal(telemetryWanted({}), false);
  assert.equal(telemetryWanted({ OTEL_TRACES_EXPORTER: 'none' }), false);
  assert.equal(telemetryWanted({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_SDK_DISABLED: 'true' }), false);
});

test('when an exporter or an OTLP endpoint is set, then tracing is on', () => {
  assert.equal(telemetryWanted({ OTEL_TRACES_EXPORTER: 'console' }), true);
  assert.equal(telemetryWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' }), true);
});

const sdkLoaded = (): boolean => Object.keys(require.cache).some((path) => path.includes('@opentelemetry/sdk-node'));

test('when tracing is off, then the OpenTelemetry SDK is never loaded; when it is on, then it is loaded and started', async () => {
  const off = startTelemetry('svc', {});
  assert.equal(off.enabled, false);
  assert.equal(sdkLoaded(), false, 'a process without tracing does not pay for the SDK');

  const saved = { ...process.env };
  Object.assign(process.env, { OTEL_TRACES_EXPORTER: 'console', OTEL_METRICS_EXPORTER: 'none', OTEL_LOGS_EXPORTER: 'none' });
  try {
    const on = startTelemetry('svc', process.env);
    assert.equal(on.enabled, true);
    assert.equal(sdkLoaded(), true);
    await on.shutdown();
  } finally {
    for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
    Object.assign(process.env, saved);
  }
});
