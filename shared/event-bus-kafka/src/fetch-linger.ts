import { setTimeout as delay } from 'node:timers/promises';

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
    this.current?.abort();
    this.current = undefined;
  }
}
