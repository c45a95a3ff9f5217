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

/**
 * What an OpenTelemetry SDK would register, reduced to what the adapter relies on: a context manager
 * (async-local) and a propagator that carries one value in the `traceparent` header.
 */
export const FAKE_TRACE = createContextKey('fake trace id');

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
    const id = ctx.getValue(FAKE_TRACE);
    if (typeof id === 'string') setter.set(carrier, 'traceparent', id);
  },
  extract(ctx, carrier, getter) {
    const id = getter.get(carrier, 'traceparent');
    return typeof id === 'string' ? ctx.setValue(FAKE_TRACE, id) : ctx;
  },
  fields: () => ['traceparent'],
};

export function registerFakeOtel(): void {
  context.setGlobalContextManager(new AlsContextManager());
  propagation.setGlobalPropagator(fakePropagator);
}

/** Runs `fn` inside a context whose fake trace id is `id`. */
export function inFakeTrace<T>(id: string, fn: () => T): T {
  return context.with(ROOT_CONTEXT.setValue(FAKE_TRACE, id), fn);
}

export function currentFakeTrace(): unknown {
  return context.active().getValue(FAKE_TRACE);
}
