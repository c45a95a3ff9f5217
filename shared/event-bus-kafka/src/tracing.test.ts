import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { AsyncLocalStorage } from 'node:async_hooks';
import {
  context,
  createContextKey,
  propagation,
  ROOT_CONTEXT,
  type Context,
  type ContextManager,
  type TextMapPropagator,
} from '@opentelemetry/api';
import { processInTraceContext, withTraceContext } from './tracing';

// Without an SDK the API is a no-op; these tests register a tiny context manager and propagator
// (what the SDK would register) to check what the adapter does with them.
const TRACE = createContextKey('fake trace id');

class AlsContextManager implements ContextManager {
  private readonly storage = new AsyncLocalStorage<Context>();
  active(): Context {
    return this.storage.getStore() ?? ROOT_CONTEXT;
  }
  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(ctx: Context, fn: F, thisArg?: ThisParameterType<F>, ...args: A): ReturnType<F> {
    return this.storage.run(ctx, () => fn.call(thisArg, ...args));
  }
  bind<T>(_ctx: Context, target: T): T {
    return target;
  }
  enable(): this {
    return this;
  }
  disable(): this {
    return this;
  }
}

const fakePropagator: TextMapPropagator = {
  inject(ctx, carrier, setter) {
    const id = ctx.getValue(TRACE);
    if (typeof id === 'string') setter.set(carrier, 'traceparent', id);
  },
  extract(ctx, carrier, getter) {
    const id = getter.get(carrier, 'traceparent');
    return typeof id === 'string' ? ctx.setValue(TRACE, id) : ctx;
  },
  fields: () => ['traceparent'],
};

describe('trace context over headers', () => {
  it('when no propagator is registered, then the headers are the caller’s, copied', () => {
    const headers = { 'x-test': 'yes' };
    const out = withTraceContext(headers);
    assert.deepEqual(out, { 'x-test': 'yes' });
    assert.notEqual(out, headers);
    assert.deepEqual(withTraceContext(undefined), {});
  });

  describe('with a registered propagator', () => {
    before(() => {
      context.setGlobalContextManager(new AlsContextManager());
      propagation.setGlobalPropagator(fakePropagator);
    });

    it('when publishing inside a trace, then its context is added to the headers', () => {
      const out = context.with(ROOT_CONTEXT.setValue(TRACE, 'trace-1'), () => withTraceContext({ 'x-test': 'yes' }));
      assert.deepEqual(out, { 'x-test': 'yes', traceparent: 'trace-1' });
    });

    it('when the caller already carries trace context, then it is kept', () => {
      const out = context.with(ROOT_CONTEXT.setValue(TRACE, 'trace-1'), () => withTraceContext({ traceparent: 'from-outbox' }));
      assert.deepEqual(out, { traceparent: 'from-outbox' });
    });

    it('when a message carries trace context, then the handler runs inside it', async () => {
      const seen = await processInTraceContext('t', { traceparent: 'trace-2' }, {}, async () => context.active().getValue(TRACE));
      assert.equal(seen, 'trace-2');
      assert.equal(context.active().getValue(TRACE), undefined);
    });

    it('when the handler throws, then the error reaches the caller', async () => {
      await assert.rejects(processInTraceContext('t', {}, {}, async () => Promise.reject(new Error('boom'))), /boom/);
    });
  });
});
