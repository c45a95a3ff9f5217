import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { processInTraceContext, withTraceContext } from './tracing';
import { currentFakeTrace, inFakeTrace, registerFakeOtel } from './test-support/fake-otel';

describe('trace context over headers', () => {
  it('when no propagator is registered, then the headers are the caller’s, copied', () => {
    const headers = { 'x-test': 'yes' };
    const out = withTraceContext(headers);
    assert.deepEqual(out, { 'x-test': 'yes' });
    assert.notEqual(out, headers);
    assert.deepEqual(withTraceContext(undefined), {});
  });

  describe('with a registered propagator', () => {
    before(registerFakeOtel);

    it('when publishing inside a trace, then its context is added to the headers', () => {
      const out = inFakeTrace('trace-1', () => withTraceContext({ 'x-test': 'yes' }));
      assert.deepEqual(out, { 'x-test': 'yes', traceparent: 'trace-1' });
    });

    it('when the caller already carries trace context, then it is kept', () => {
      const out = inFakeTrace('trace-1', () => withTraceContext({ traceparent: 'from-outbox' }));
      assert.deepEqual(out, { traceparent: 'from-outbox' });
    });

    it('when a message carries trace context, then the handler runs inside it', async () => {
      const seen = await processInTraceContext('t', { traceparent: 'trace-2' }, {}, async () => currentFakeTrace());
      assert.equal(seen, 'trace-2');
      assert.equal(currentFakeTrace(), undefined);
    });

    it('when the handler throws, then the error reaches the caller', async () => {
      await assert.rejects(processInTraceContext('t', {}, {}, async () => Promise.reject(new Error('boom'))), /boom/);
    });
  });
});
