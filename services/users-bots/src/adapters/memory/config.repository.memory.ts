import type { SystemConfig } from '@switchyard/system-config';
import type { ConfigRepository } from '../../domain/ports';
import { copy } from './memory-utils';

export class MemoryConfigRepository implements ConfigRepository {
  private stored: Record<string, unknown> | undefined;

  public constructor(initial?: Record<string, unknown>) {
    this.stored = initial ? copy(initial) : undefined;
  }

  public async load(): Promise<Record<string, unknown> | undefined> {
    return this.stored ? copy(this.stored) : undefined;
  }

  public async save(config: SystemConfig): Promise<void> {
    this.stored = copy(config) as unknown as Record<string, unknown>;
  }
}
