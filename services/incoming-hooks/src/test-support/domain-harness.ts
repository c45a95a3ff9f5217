import { ManualClock, newId, randomIds } from '@switchyard/ids';
import { createSilentLogger } from '@switchyard/logger';
import { MutableConfigView, defaultSystemConfig, type SystemConfig } from '@switchyard/system-config';
import { memoryRepositories } from '../adapters/memory';
import { FlexibleHookRateLimiter } from '../adapters/rate-limit/flexible-hook-rate-limiter';
import type { IncomingHook } from '../domain/entities';
import type { Actor, Deps } from '../domain/ports';
import { FakeChannelDirectory, FakeUserDirectory, RecordingHookFiles, RecordingPostCommands } from './fakes';
import { JsonataTransformEngine } from '../adapters/transform/jsonata-engine';

export const silentLogger = createSilentLogger();

export interface World {
  readonly deps: Deps;
  readonly channels: FakeChannelDirectory;
  readonly users: FakeUserDirectory;
  readonly commands: RecordingPostCommands;
  readonly files: RecordingHookFiles;
  readonly clock: ManualClock;
  readonly config: MutableConfigView;
  readonly teamId: string;
  /** system_admin */
  readonly admin: Actor & { username: string };
  /** team_admin of the team */
  readonly teamAdmin: Actor & { username: string };
  /** plain team_user */
  readonly member: Actor & { username: string };
  readonly town: ReturnType<FakeChannelDirectory['add']>;
  setConfig(change: (config: SystemConfig) => void): void;
  /** A hook stored directly (bypassing the use case). */
  hook(overrides?: Partial<IncomingHook>): Promise<IncomingHook>;
}

/** Use-case dependencies over memory repositories and fakes: one team, a public channel, three users. */
export function world(): World {
  const channels = new FakeChannelDirectory();
  const users = new FakeUserDirectory();
  const commands = new RecordingPostCommands();
  const files = new RecordingHookFiles();
  const clock = new ManualClock();
  const config = new MutableConfigView(defaultSystemConfig());
  const deps: Deps = {
    ...memoryRepositories(),
    channels,
    users,
    postCommands: commands,
    hookFiles: files,
    rateLimiter: new FlexibleHookRateLimiter(),
    clock,
    ids: randomIds,
    liveConfig: config,
    // Built-in templates run in process; no test here evaluates an own expression (no worker threads start).
    transforms: new JsonataTransformEngine(),
  };
  const teamId = newId();
  const person = (username: string, roles: string, teamRoles: string): Actor & { username: string } => {
    const user = users.add(username, { roles });
    users.joinTeam(teamId, user.id, teamRoles);
    return { userId: user.id, roles, username };
  };
  const admin = person('root', 'system_user system_admin', 'team_user');
  const teamAdmin = person('tadmin', 'system_user', 'team_user team_admin');
  const member = person('member', 'system_user', 'team_user');
  const town = channels.add({ team_id: teamId, type: 'O', name: 'town-square' });
  return {
    deps,
    channels,
    users,
    commands,
    files,
    clock,
    config,
    teamId,
    admin,
    teamAdmin,
    member,
    town,
    setConfig: (change) => {
      const next = structuredClone(config.current()) as SystemConfig;
      change(next);
      config.replace(next);
    },
    hook: async (overrides = {}) => {
      const hook: IncomingHook = {
        id: newId(),
        createAt: clock.now(),
        updateAt: clock.now(),
        deleteAt: 0,
        userId: teamAdmin.userId,
        channelId: town.id,
        teamId,
        displayName: 'CI',
        description: '',
        username: '',
        iconUrl: '',
        channelLocked: false,
        reactionNotifications: false,
        ...overrides,
      };
      await deps.hooks.insert(hook);
      return hook;
    },
  };
}
