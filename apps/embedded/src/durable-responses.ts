import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';

const STORE_FAILED = JSON.stringify({
  id: 'app.store.write_failed.app_error',
  message: 'The change could not be written to disk.',
  detailed_error: '',
  request_id: '',
  status_code: 500,
});

/**
 * Acknowledged means stored: wraps the public listener so that no answer leaves the process before
 * every change committed so far is on disk (`flush` = the store's group-commit sync). The handler runs
 * as usual; its first `write`/`end` waits for the sync, later ones keep their order behind it. If the
 * sync fails, a 500 goes out instead of the answer (or the connection is dropped once headers left).
 */
export function answerWhenDurable(handler: RequestListener, flush: () => Promise<void>): RequestListener {
  return (req: IncomingMessage, res: ServerResponse) => {
    // The methods, called on `res` (not bound copies: one less function object per open request).
    const ownWrite = res.write as (...args: unknown[]) => boolean;
    const ownEnd = res.end as (...args: unknown[]) => ServerResponse;
    let gate: Promise<boolean> | undefined;
    const durable = (): Promise<boolean> =>
      (gate ??= flush().then(
        () => true,
        () => {
          if (!res.headersSent) {
            res.statusCode = 500;
            res.setHeader('Content-Type', 'application/json');
            res.removeHeader('Content-Length');
            Reflect.apply(ownEnd, res, [STORE_FAILED]);
          } else {
            res.destroy();
          }
          return false;
        },
      ));
    res.write = ((...args: unknown[]) => {
      gate = durable().then((ok) => ok && (Reflect.apply(ownWrite, res, args), true));
      return true;
    }) as typeof res.write;
    res.end = ((...args: unknown[]) => {
      void durable().then((ok) => {
        if (ok) Reflect.apply(ownEnd, res, args);
      });
      return res;
    }) as typeof res.end;
    handler(req, res);
  };
}
