import type { SystemConfig } from './defaults';
import { defaultSystemConfig } from './defaults';

/** A service's live copy of the system config, replaced whenever a `config.updated` event arrives. */
export interface ConfigView {
  current(): Readonly<SystemConfig>;
}

export class MutableConfigView implements ConfigView {
  private config: SystemConfig;
  private readonly listeners = new Set<(config: SystemConfig) => void>();

  public constructor(initial: SystemConfig = defaultSystemConfig()) {
    this.config = initial;
  }

  public current(): Readonly<SystemConfig> {
    return this.config;
  }

  public replace(config: SystemConfig): void {
    this.config = config;
    for (const listener of this.listeners) listener(config);
  }

  public onChange(listener: (config: SystemConfig) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
