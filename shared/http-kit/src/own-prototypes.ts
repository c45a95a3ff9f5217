import { IncomingMessage, ServerResponse } from 'node:http';
import type { Express } from 'express';

function detached(shared: object, base: object): object {
  return Object.create(base, Object.getOwnPropertyDescriptors(shared)) as object;
}

/**
 * Gives one express app request/response prototypes of its own, copied from express's and based on
 * node's IncomingMessage/ServerResponse. Applied by createHttpApp to every app.
 *
 * Why: light-my-request, with which tests inject requests (no runtime code uses it since the in-process
 * transport became in-process-dispatch.ts, ADR 0028), re-parents express's *shared* prototypes onto its own
 * fake classes the first time it injects into an express app; an app in the same process that serves real
 * sockets would then crash (`_lightMyRequest` is undefined). `listen` gives each request its app's
 * prototypes at birth (serverClasses below), and those must stay node's.
 * With prototypes of its own, injecting into one app cannot break another.
 *
 * Each prototype is the `prototype` of a real subclass of node's class (`app.request.constructor`), whose own
 * prototype is the copy of express's: `listen` constructs requests and responses with those subclasses
 * (serverClasses), and a subclass keeps node's fast object layout (see serverClasses).
 */
export function useOwnPrototypes(app: Express): void {
  const request = detached(Object.getPrototypeOf(app.request) as object, IncomingMessage.prototype);
  const response = detached(Object.getPrototypeOf(app.response) as object, ServerResponse.prototype);
  class AppRequest extends IncomingMessage {}
  class AppResponse extends ServerResponse {}
  app.request = ownPrototype(AppRequest, request, app) as Express['request'];
  app.response = ownPrototype(AppResponse, response, app) as Express['response'];
}

/** `subclass.prototype`, re-parented onto `shared` (express's methods) and given `app` as express's own do. */
function ownPrototype(subclass: { prototype: object }, shared: object, app: Express): object {
  Object.setPrototypeOf(subclass.prototype, shared);
  return Object.defineProperty(subclass.prototype, 'app', { configurable: true, enumerable: true, writable: true, value: app });
}

/** The prototypes an express app gives each request and response (`app.request`, `app.response`). */
export interface RequestPrototypes {
  readonly request: object;
  readonly response: object;
}

/**
 * The request/response prototypes of `handler` when it is an express app whose prototypes extend
 * node's IncomingMessage/ServerResponse (every createHttpApp app); undefined for any other listener.
 */
export function requestPrototypes(handler: unknown): RequestPrototypes | undefined {
  if (typeof handler !== 'function') return undefined;
  const { request, response, handle } = handler as { request?: unknown; response?: unknown; handle?: unknown };
  if (typeof handle !== 'function') return undefined;
  if (typeof request !== 'object' || request === null || typeof response !== 'object' || response === null) return undefined;
  if (!Object.prototype.isPrototypeOf.call(IncomingMessage.prototype, request) || !Object.prototype.isPrototypeOf.call(ServerResponse.prototype, response)) return undefined;
  return { request, response };
}

/** The subclass of `base` whose `prototype` is `prototype` (its own `constructor`), if there is one. */
function subclassOf<T extends abstract new (...args: never[]) => unknown>(prototype: object, base: T): T | undefined {
  const ctor = (Object.getOwnPropertyDescriptor(prototype, 'constructor') as { value?: unknown } | undefined)?.value;
  if (typeof ctor !== 'function' || (ctor as { prototype?: unknown }).prototype !== prototype) return undefined;
  return Object.prototype.isPrototypeOf.call(base, ctor) && Object.prototype.isPrototypeOf.call(base.prototype, prototype) ? (ctor as T) : undefined;
}

/**
 * Request and response classes for `http.createServer` whose instances are born with the app's
 * prototypes: the subclasses of node's IncomingMessage/ServerResponse that useOwnPrototypes made (undefined
 * for an app without them, e.g. a bare `express()`: node's classes then, and express swaps). Express swaps
 * every request's and response's prototype for its own (`Object.setPrototypeOf` in `app.handle`); on an
 * object that already has it, that is a no-op. The swap itself is what costs: V8 gives each swapped object a
 * new map, and node's own HTTP code, which reads and writes those objects all along, then runs on maps it
 * was not optimised for. Measured on the gateway alone (a hook post, stub service behind it): ~200 -> ~107 us
 * CPU per request.
 * They must be real subclasses (`class extends`): a plain function calling `ServerResponse.call(this)` (tried
 * before) gives instances almost no in-object slots, and node's symbol-keyed stores then turn every response
 * into a dictionary-mode object (~3 KB more per open response, slower property access); `Reflect.construct`
 * with another new.target was slower than no classes at all (~270 us).
 */
export function serverClasses(prototypes: RequestPrototypes): { IncomingMessage: typeof IncomingMessage; ServerResponse: typeof ServerResponse } | undefined {
  const request = subclassOf(prototypes.request, IncomingMessage);
  const response = subclassOf(prototypes.response, ServerResponse);
  return request && response ? { IncomingMessage: request, ServerResponse: response } : undefined;
}
