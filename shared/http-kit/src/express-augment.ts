import type { Identity } from './identity';
import type { ByteCap } from './stream-body';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      rawBody?: Buffer;
      /** The body left unread, capped (streamedBody): set instead of rawBody on streamed routes. */
      bodyStream?: ByteCap;
      requestId?: string;
      identity?: Identity;
    }
  }
}

export {};
