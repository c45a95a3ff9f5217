import { test } from 'node:test';
import assert from 'node:assert/strict';
import { propagation } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { traceCarrierOf } from './trace-carrier';

const PARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';

test('when no propagator is registered (telemetry off), then no trace context is kept', () => {
  propagation.disable();
  assert.equal(traceCarrierOf({ traceparent: PARENT }), undefined);
});

test('when the W3C propagator is registered, then only valid trace context is kept, without other headers', () => {
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  try {
    assert.deepEqual(traceCarrierOf({ traceparent: PARENT, tracestate: 'vendor=1', 'x-request-id': 'r' }), { traceparent: PARENT, tracestate: 'vendor=1' });
    assert.deepEqual(traceCarrierOf({ traceparent: PARENT }), { traceparent: PARENT });
    assert.equal(traceCarrierOf({ traceparent: 'not-a-traceparent' }), undefined);
    assert.equal(traceCarrierOf({ traceparent: '00-00000000000000000000000000000000-00f067aa0ba902b7-01' }), undefined, 'an all-zero trace id is invalid');
    assert.equal(traceCarrierOf({}), undefined);
  } finally {
    propagation.disable();
  }
});
