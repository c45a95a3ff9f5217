import { test } from 'node:test';
import assert from 'node:assert/strict';
import { telemetryWanted } from './index';

test('when no OTEL variable chooses an exporter, then tracing stays off', () => {
  assert.equal(telemetryWanted({}), false);
  assert.equal(telemetryWanted({ OTEL_TRACES_EXPORTER: 'none' }), false);
  assert.equal(telemetryWanted({ OTEL_TRACES_EXPORTER: 'otlp', OTEL_SDK_DISABLED: 'true' }), false);
});

test('when an exporter or an OTLP endpoint is set, then tracing is on', () => {
  assert.equal(telemetryWanted({ OTEL_TRACES_EXPORTER: 'console' }), true);
  assert.equal(telemetryWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' }), true);
});
