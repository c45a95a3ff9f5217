import type { Logger } from '@switchyard/logger';
import { withDefaults, type MutableConfigView, type SystemConfig } from '@switchyard/system-config';
/** Where the system config comes from at start. */
export interface ConfigSource {
  load(): Promise<SystemConfig>;
}

export interface LiveConfigOptions {
  readonly view: MutableConfigView;
  readonly source: ConfigSource;
  readonly logger: Logger;
  readonly initialDelayMs?: number;
  readonly maxDelayMs?: number;
}

/**
 * Keeps a service's copy of the system config: loaded from users-bots at start (retried with
 * exponential backoff until it answers), then replaced by every `config.updated` event. A load that
 * overlaps an event is discarded, so an older document never replaces a newer one.
 */
export class LiveConfig {
  private loadedOnce = false;
  private changes = 0;
  private stopped = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly waiters = new Set<() => void>();

  public constructor(private readonly options: LiveConfigOptions) {}

  public get loaded(): boolean {
    return this.loadedOnce;
  }

  /** Tries once now; on failure keeps retrying in the background and resolves at once. */
  public async start(): Promise<void> {
    this.stopped = false;
    await this.attempt(this.options.initialDelayMs ?? 200);
  }

  public stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** A `config.updated` event's full document. */
  public apply(document: Record<string, unknown>): void {
    this.changes += 1;
    this.options.view.replace(withDefaults(document));
    this.loadedOnce = true;
    for (const wake of this.waiters) wake();
    this.waiters.clear();
  }

  /**
   * Resolves true at the next `config.updated` event applied after this call, or false after `timeoutMs`.
   * Register before the write that causes the event: the event may arrive before the write's answer.
   */
  public nextApply(timeoutMs: number): Promise<boolean> {
    return new Promise((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        this.waiters.delete(wake);
        resolve(false);
      }, timeoutMs);
      this.waiters.add(wake);
    });
  }

  private async attempt(delayMs: number): Promise<void> {
    if (this.stopped || this.loadedOnce) return;
    const changesBefore = this.changes;
    try {
      const config = await this.options.source.load();
      if (this.stopped || this.changes !== changesBefore) return;
      this.options.view.replace(config);
      this.loadedOnce = true;
      this.options.logger.info('system config loaded');
    } catch (error) {
      if (this.stopped) return;
      this.options.logger.warn('system config not available yet, retrying', { retry_in_ms: delayMs, error });
      const next = Math.min(delayMs * 2, this.options.maxDelayMs ?? 10_000);
      this.timer = setTimeout(() => void this.attempt(next), delayMs);
      this.timer.unref();
    }
  }
}
