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
 */
export function useOwnPrototypes(app: Express): void {
  const request = detached(Object.getPrototypeOf(app.request) as object, IncomingMessage.prototype);
  const response = detached(Object.getPrototypeOf(app.response) as object, ServerResponse.prototype);
  app.request = Object.create(request, { app: { configurable: true, enumerable: true, writable: true, value: app } }) as Express['request'];
  app.response = Object.create(response, { app: { configurable: true, enumerable: true, writable: true, value: app } }) as Express['response'];
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

type Construct = (this: unknown, ...args: unknown[]) => void;

/** node's constructors are plain functions (Node 20-24), so a subclass can call them on its own instance. */
const callable = (ctor: unknown): boolean => typeof ctor === 'function' && !/^class\b/.test(Function.prototype.toString.call(ctor));

/**
 * Request and response classes for `http.createServer` whose instances are born with the app's
 * prototypes (undefined where node's constructors cannot be called that way). Express swaps every
 * request's and response's prototype for its own (`Object.setPrototypeOf` in `app.handle`); on an object
 * that already has it, that is a no-op. The swap itself is what costs: V8 gives each swapped object a new
 * map, and node's own HTTP code, which reads and writes those objects all along, then runs on maps it was
 * not optimised for. Measured on the gateway alone (a hook post, stub service behind it): ~200 -> ~107 us
 * CPU per request. (`Reflect.construct` with the subclass as new.target, tried first, was slower than no
 * classes at all: ~270 us.)
 */
export function serverClasses(prototypes: RequestPrototypes): { IncomingMessage: typeof IncomingMessage; ServerResponse: typeof ServerResponse } | undefined {
  if (!callable(IncomingMessage) || !callable(ServerResponse)) return undefined;
  const incoming = IncomingMessage as unknown as Construct;
  const outgoing = ServerResponse as unknown as Construct;
  function Request(this: unknown, socket: unknown): void {
    incoming.call(this, socket);
  }
  Request.prototype = prototypes.request;
  function Response(this: unknown, req: unknown, options: unknown): void {
    outgoing.call(this, req, options);
  }
  Response.prototype = prototypes.response;
  return { IncomingMessage: Request as unknown as typeof IncomingMessage, ServerResponse: Response as unknown as typeof ServerResponse };
}
