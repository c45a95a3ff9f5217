import type { Response } from 'express';
import type { LeaveSignal } from '@switchyard/http-kit';

/**
 * Aborted when the client leaves before its answer (its connection closed): a long-poll upstream stops
 * waiting. One object and one `close` listener per request (an AbortController, its signal and their
 * event-target bookkeeping held ~0.7 KB more per waiting poll); it tells one listener, which is all a call
 * gives it.
 */
export class ClientGone implements LeaveSignal {
  public aborted = false;
  private listener: (() => void) | undefined;

  public constructor(res: Response) {
    // `on`, not `once` (a response closes once): no wrapper per waiting poll.
    res.on('close', () => {
      if (!res.writableEnded) this.abort();
    });
  }

  public addEventListener(_type: 'abort', listener: () => void): void {
    this.listener = listener;
  }

  public removeEventListener(_type: 'abort', listener: () => void): void {
    if (this.listener === listener) this.listener = undefined;
  }

  private abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    const listener = this.listener;
    this.listener = undefined;
    listener?.();
  }
}
