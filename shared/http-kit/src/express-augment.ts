import type { Identity } from './identity';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      rawBody?: Buffer;
      requestId?: string;
      identity?: Identity;
    }
  }
}

export {};
