import { setTimeout as delay } from 'node:timers/promises';

/** Why a linger ended early: one object for every wake (an `abort()` without a reason builds a DOMException each time). */
const WOKEN = new Error('fetch linger woken');

/** The wait between a fetch that brought messages and the next one (ADR 0017); `wake()` ends it early (stop, a waiter). */
export class FetchLinger {
  private current: AbortController | undefined;

  /** Resolves at `at` (ms since the epoch) or at the next `wake()`, whichever comes first. */
  public async until(at: number): Promise<void> {
    const wait = at - Date.now();
    if (wait <= 0) return;
    const current = new AbortController();
    this.current = current;
    await delay(wait, undefined, { signal: current.signal }).catch(() => undefined);
    if (this.current === current) this.current = undefined;
  }

  public wake(): void {
    this.current?.abort(WOKEN);
    this.current = undefined;
  }
}
