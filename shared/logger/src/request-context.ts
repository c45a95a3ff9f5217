import { AsyncLocalStorage } from 'node:async_hooks';

/** Per-request values that every log line carries. Set by the HTTP kit and by bus consumers. */
export interface RequestContext {
  readonly requestId?: string;
  readonly userId?: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

export function runWithRequestContext<T>(context: RequestContext, fn: () => T): T {
  return storage.run(context, fn);
}

export function currentRequestContext(): RequestContext | undefined {
  return storage.getStore();
}
