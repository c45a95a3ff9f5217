import { createSilentLogger } from '@switchyard/logger';
import { MutableConfigView, defaultSystemConfig, type SystemConfig } from '@switchyard/system-config';
import { ManualClock } from '@switchyard/ids';
import { ScryptPasswordHasher } from '../adapters/crypto/scrypt-password-hasher';
import { libraryPictureProcessor } from '../adapters/images/picture-processor';
import { BusDomainEvents } from '../adapters/events/bus-domain-events';
import { eventOnlyTeamChannels } from '../adapters/http/team-channels.http';
import { memoryRepositories } from '../adapters/memory';
import type { Actor } from '../domain/authorization';
import type { Deps } from '../domain/ports';
import { RecordingBus } from './recording-bus';

export const silentLogger = createSilentLogger();

/** A cheap scrypt cost for tests (the default is memory-hard on purpose). */
export const fastHasher = new ScryptPasswordHasher({ cost: 1024 });

export interface DomainHarness {
  readonly deps: Deps;
  readonly bus: RecordingBus;
  readonly clock: ManualClock;
  readonly config: MutableConfigView;
  setConfig(change: (config: SystemConfig) => void): void;
}

/** Use-case dependencies over memory repositories, a recording bus and a manual clock. */
export function domainHarness(): DomainHarness {
  const bus = new RecordingBus();
  const clock = new ManualClock();
  const config = new MutableConfigView(defaultSystemConfig());
  const repositories = memoryRepositories();
  const deps: Deps = { ...repositories, pictures: libraryPictureProcessor, cachedUsers: { cached: (id) => repositories.users.findById(id) }, clock, passwords: fastHasher, events: new BusDomainEvents(bus), teamChannels: eventOnlyTeamChannels, liveConfig: config };
  return {
    deps,
    bus,
    clock,
    config,
    setConfig: (change) => {
      const next = structuredClone(config.current()) as SystemConfig;
      change(next);
      config.replace(next);
    },
  };
}

export function actor(userId: string, roles = 'system_user', extra: Partial<Actor> = {}): Actor {
  return { userId, sessionId: 'session-id', roles, isBot: false, sessionType: 'session', ...extra };
}
