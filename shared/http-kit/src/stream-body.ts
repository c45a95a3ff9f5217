import type { IncomingMessage } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { Transform, type Readable } from 'node:stream';
import { commonErrors } from '@switchyard/errors';

/**
 * A pass-through that counts bytes and fails with `tooLarge()` past `max`. `failure` tells afterwards
 * whether the cap (and not something else) ended the stream.
 */
export class ByteCap extends Transform {
  public seen = 0;
  public failure: Error | undefined;

  public constructor(
    private readonly max: number,
    private readonly tooLarge: () => Error,
  ) {
    super();
  }

  public override _transform(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null, data?: Buffer) => void): void {
    this.seen += chunk.length;
    if (this.seen > this.max) {
      this.failure = this.tooLarge();
      done(this.failure);
      return;
    }
    done(null, chunk);
  }
}

/**
 * `source` through a ByteCap: an error of the source (a client that goes away) ends the capped stream too,
 * so whoever reads it is never left waiting.
 */
export function capStream(source: Readable, max: number, tooLarge: () => Error): ByteCap {
  const cap = new ByteCap(max, tooLarge);
  // Its readers see its failure through their own pipes (and `failure`); an 'error' nobody listens to (the
  // client gone before any reader, or after the answer) must not crash the process.
  cap.on('error', () => undefined);
  source.on('error', (error) => cap.destroy(error));
  source.on('aborted', () => cap.destroy(Object.assign(new Error('the request was aborted'), { code: 'ECONNRESET' })));
  source.pipe(cap);
  return cap;
}

/** What an answered request may still send before its connection is cut (the rest of an upload nobody reads). */
export const DISCARD_LIMITS = { bytes: 16 * 1024 * 1024, ms: 10_000 } as const;

/**
 * A request answered before its body was read to the end (a cap, a refusal): the rest is read and thrown
 * away, so the client, still sending, gets the answer instead of a reset (closing a socket with unread bytes
 * makes the kernel send RST, which may destroy the answer in flight), and a keep-alive connection stays
 * usable. Bounded: past `limits.bytes` more or `limits.ms`, the connection is cut.
 */
export function discardRest(req: IncomingMessage, limits: { readonly bytes: number; readonly ms: number } = DISCARD_LIMITS): void {
  if (req.complete || req.readableEnded || req.destroyed) return;
  req.unpipe();
  let seen = 0;
  const cut = (): void => {
    clearTimeout(timer);
    req.socket?.destroy();
  };
  const timer = setTimeout(cut, limits.ms);
  timer.unref();
  req.on('data', (chunk: Buffer) => {
    seen += chunk.length;
    if (seen > limits.bytes) cut();
  });
  req.once('end', () => clearTimeout(timer));
  req.once('close', () => clearTimeout(timer));
  req.resume();
}

/**
 * Leaves the body unread and hands it on as `req.bodyStream`, capped at `limit(req)` bytes (ADR 0029): a
 * declared `Content-Length` over the limit is refused at once with `tooLarge(req)` (default 413
 * request_body_too_large), a body that streams past it fails its stream with the same error. For routes
 * whose bodies may be far larger than a JSON request (file uploads), so nothing holds them whole.
 */
export function streamedBody(limit: (req: Request) => number, tooLarge: (req: Request) => Error = () => commonErrors.bodyTooLarge()) {
  return (req: Request, _res: Response, next: NextFunction): void => {
    const max = limit(req);
    const declared = Number(req.headers['content-length'] ?? '0');
    if (declared > max) {
      discardRest(req);
      next(tooLarge(req));
      return;
    }
    req.bodyStream = capStream(req, max, () => tooLarge(req));
    next();
  };
}
