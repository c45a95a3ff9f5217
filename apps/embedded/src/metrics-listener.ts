import { parseListenAddress, startMetricsServer, type MetricsServer } from '@switchyard/metrics';

/**
 * What the environment fixes about the metrics listener (METRICS_ENABLED; METRICS_PORT or
 * METRICS_LISTEN_ADDRESS). Each key it leaves out comes from the config document's MetricsSettings.
 */
export interface MetricsOverrides {
  readonly enabled?: boolean;
  readonly port?: number;
  readonly host?: string;
}

/** The config document's keys this listener follows (`MetricsSettings`). */
export interface MetricsSettings {
  readonly Enable: boolean;
  readonly ListenAddress: string;
}

export type MetricsTarget = { readonly host: string; readonly port: number } | undefined;

/**
 * Where the metrics listener should be: env over document, key by key (as the reference's
 * `MM_METRICSSETTINGS_*` over config.json). Undefined: no listener. Throws when the address does not parse.
 */
export function metricsTarget(settings: MetricsSettings, overrides: MetricsOverrides): MetricsTarget {
  if (!(overrides.enabled ?? settings.Enable)) return undefined;
  if (overrides.port !== undefined) return { host: overrides.host ?? '0.0.0.0', port: overrides.port };
  return parseListenAddress(settings.ListenAddress);
}

export interface MetricsListenerLogger {
  info(message: string, meta?: Record<string, unknown>): void;
  warn(message: string, meta?: Record<string, unknown>): void;
}

/**
 * The embedded runtime's Prometheus listener, following `MetricsSettings.Enable` and `ListenAddress` of the
 * live config document: a change of either closes the listener and opens the new one, as the reference
 * resets its metrics server. A listener that cannot start (address taken, unparsable) is logged and left
 * closed until the next change, as the reference does.
 */
export class MetricsListener {
  private server: MetricsServer | undefined;
  private target: MetricsTarget;
  private applied = false;
  /** Resets run one after the other, in the order the changes came. */
  private queue: Promise<void> = Promise.resolve();

  public constructor(
    private readonly overrides: MetricsOverrides,
    private readonly logger: MetricsListenerLogger,
  ) {}

  /** `http://…/metrics` while a listener is open. */
  public get url(): string | undefined {
    return this.server?.url;
  }

  /** Resolves once the listener matches `settings` (or failed to, logged). */
  public apply(settings: MetricsSettings): Promise<void> {
    this.queue = this.queue.then(() => this.reset(settings));
    return this.queue;
  }

  public close(): Promise<void> {
    this.queue = this.queue.then(async () => {
      await this.server?.close();
      this.server = undefined;
    });
    return this.queue;
  }

  private async reset(settings: MetricsSettings): Promise<void> {
    let target: MetricsTarget;
    try {
      target = metricsTarget(settings, this.overrides);
    } catch (error) {
      this.logger.warn('metrics listener not reset: MetricsSettings.ListenAddress does not parse', { listenAddress: settings.ListenAddress, error: String(error) });
      return;
    }
    if (this.applied && target?.host === this.target?.host && target?.port === this.target?.port) return;
    this.applied = true;
    this.target = target;
    await this.server?.close();
    this.server = undefined;
    if (!target) {
      this.logger.info('metrics listener off (MetricsSettings.Enable or METRICS_ENABLED)');
      return;
    }
    try {
      this.server = await startMetricsServer(target.port, target.host);
      this.logger.info('metrics listener open', { url: this.server.url });
    } catch (error) {
      this.logger.warn('metrics listener not started', { host: target.host, port: target.port, error: error instanceof Error ? error.message : String(error) });
    }
  }
}
