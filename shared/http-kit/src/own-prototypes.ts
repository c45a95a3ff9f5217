import { IncomingMessage, ServerResponse } from 'node:http';
import type { Express } from 'express';

function detached(shared: object, base: object): object {
  return Object.create(base, Object.getOwnPropertyDescriptors(shared)) as object;
}

/**
 * Gives one express app request/response prototypes of its own, copied from express's and based on
 * node's IncomingMessage/ServerResponse.
 *
 * Why: light-my-request (the in-process transport) re-parents express's *shared* request and response
 * prototypes onto its own fake classes the first time it injects into any express app. After that, an
 * express app in the same process that serves real sockets crashes (`_lightMyRequest` is undefined).
 * The gateway is the one app of the embedded runtime that serves real sockets, so it must not share them.
 */
/** Applied by createHttpApp to every app, so in-process injection into one app cannot break another. */
export function useOwnPrototypes(app: Express): void {
  const request = detached(Object.getPrototypeOf(app.request) as object, IncomingMessage.prototype);
  const response = detached(Object.getPrototypeOf(app.response) as object, ServerResponse.prototype);
  app.request = Object.create(request, { app: { configurable: true, enumerable: true, writable: true, value: app } }) as Express['request'];
  app.response = Object.create(response, { app: { configurable: true, enumerable: true, writable: true, value: app } }) as Express['response'];
}
