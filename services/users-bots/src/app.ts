import type { RequestListener } from 'node:http';
import type { EventBus, Subscription } from '@switchyard/event-bus';
import { identityMiddleware, type HealthReport, type ServiceTransport } from '@switchyard/http-kit';
import { serviceSetup } from '@switchyard/live-config';
import type { Logger } from '@switchyard/logger';
import { MutableConfigView } from '@switchyard/system-config';
import { CachingUserRepository } from './adapters/cache/caching-user-repository';
import { memoryRepositories } from './adapters/memory';
import { ScryptPasswordHasher } from './adapters/crypto/scrypt-password-hasher';
import { BusDomainEvents } from './adapters/events/bus-domain-events';
import { libraryPictureProcessor } from './adapters/images/picture-processor';
import { systemClock } from '@switchyard/ids';
import { eventOnlyTeamChannels, HttpTeamChannels } from './adapters/http/team-channels.http';
import { HttpFileSettingsOverrides } from './adapters/http/file-settings-overrides.http';
import type { UsersBotsConfig } from './config';
import { ensureSystemBot } from './domain/bots/ensure-system-bot.usecase';
import { collisionMessage } from './domain/bots/ensure-integration-bot.usecase';
import { integrationBotRoutes } from './entry-points/http/integration-bot.routes';
import { ensureConfig } from './domain/config/ensure-config.usecase';
import type { Clock, Deps, PasswordHasher, PictureProcessor, Repositories } from './domain/ports';
import { authRoutes } from './entry-points/http/auth.routes';
import { botIconRoutes } from './entry-points/http/bot-icon.routes';
import { botsRoutes } from './entry-points/http/bots.routes';
import { clientConfigRoutes } from './entry-points/http/client-config.routes';
import { configRoutes } from './entry-points/http/config.routes';
import type { HttpContext } from './entry-points/http/http-context';
import { internalRoutes } from './entry-points/http/internal.routes';
import { profileImageRoutes } from './entry-points/http/profile-image.routes';
import { teamsRoutes } from './entry-points/http/teams.routes';
import { tokensRoutes } from './entry-points/http/tokens.routes';
import { userAdminRoutes } from './entry-points/http/user-admin.routes';
import { userPatchRoutes } from './entry-points/http/user-patch.routes';
import { usersRoutes } from './entry-points/http/users.routes';
import { preferencesRoutes } from './entry-points/http/preferences.routes';
import { HttpPostAccess } from './adapters/http/post-access.http';
import { usersEmailRoutes } from './entry-points/http/users-email.routes';
import { usersSearchRoutes } from './entry-points/http/users-search.routes';
import { HttpChannelMemberIds, noChannelMembers } from './adapters/http/channel-member-ids.http';
import { subscribeConfigUpdates } from './entry-points/kafka/config-updated.consumer';
import { subscribeUserCacheEviction } from './entry-points/kafka/user-cache-eviction.consumer';

export const SERVICE_NAME = 'users-bots';

export interface UsersBotsDeps {
  readonly logger: Logger;
  readonly bus: EventBus;
  /** Calls to other services (posts' default channels); without it the team events alone make them. */
  readonly transport?: ServiceTransport;
  /** Adapters to use instead of the in-process ones (e.g. mongoose repositories). */
  readonly repositories?: Partial<Repositories>;
  readonly clock?: Clock;
  readonly passwordHasher?: PasswordHasher;
  /** Defaults to the library-backed one (DOMPurify/jsdom, sharp, jimp), each loaded on first use. */
  readonly pictures?: PictureProcessor;
  /** SiteURL stored at start when the config has none (the embedded runtime passes its listen address). */
  readonly defaultSiteUrl?: string;
}

export interface UsersBotsApp {
  /** The express app; mount it on a server or call it in-process. */
  readonly handler: RequestListener;
  /** This service's live system config. */
  readonly liveConfig: MutableConfigView;
  /** Ensures the config (with IntegrationSigningSecret) and the system bot exist, then follows config changes. */
  start(): Promise<void>;
  stop(): Promise<void>;
  health(): Promise<HealthReport>;
}

/** Composition root: adapters → use-case deps → HTTP routes. */
export function createApp(config: Readonly<UsersBotsConfig>, deps: UsersBotsDeps): UsersBotsApp {
  const setup = serviceSetup({ service: SERVICE_NAME, config, logger: deps.logger, bus: deps.bus });
  const { keys, liveConfig } = setup;
  const stored: Repositories = { ...memoryRepositories(), ...(deps.repositories ?? {}) };
  const users = new CachingUserRepository(stored.users);
  const repositories: Repositories = { ...stored, users };
  const domain: Deps = {
    ...repositories,
    pictures: deps.pictures ?? libraryPictureProcessor,
    cachedUsers: users,
    clock: deps.clock ?? systemClock,
    passwords: deps.passwordHasher ?? new ScryptPasswordHasher(),
    events: new BusDomainEvents(deps.bus),
    teamChannels: deps.transport ? new HttpTeamChannels(deps.transport, keys, deps.logger) : eventOnlyTeamChannels,
    ...(deps.transport ? { postAccess: new HttpPostAccess(deps.transport, keys) } : {}),
    liveConfig,
    ...(deps.transport ? { fileSettingsOverrides: new HttpFileSettingsOverrides(deps.transport, keys, deps.logger) } : {}),
  };
  let started = false;
  let subscriptions: Subscription[] = [];

  const health = setup.readiness(() => started);
  const http = setup.httpApp(health);
  http.app.use(identityMiddleware(() => keys));
  const context: HttpContext = {
    deps: domain,
    withBody: setup.withBody,
    internalSecret: keys,
  };
  http.app.use(clientConfigRoutes(context, config.BUILD_NUMBER ?? 'dev'));
  http.app.use(integrationBotRoutes(context, deps.logger));
  http.app.use(usersEmailRoutes(context));
  http.app.use(preferencesRoutes(context));
  http.app.use(usersSearchRoutes(context, deps.transport ? new HttpChannelMemberIds(deps.transport, keys) : noChannelMembers));
  for (const routes of [internalRoutes, tokensRoutes, authRoutes, profileImageRoutes, usersRoutes, userAdminRoutes, userPatchRoutes, botIconRoutes, botsRoutes, teamsRoutes, configRoutes]) {
    http.app.use(routes(context));
  }
  const app = http.finalize();

  return {
    handler: app as unknown as RequestListener,
    liveConfig,
    start: async () => {
      await ensureConfig(domain, deps.defaultSiteUrl);
      const systemBot = await ensureSystemBot(domain);
      // As an integration's bot (integration-interface, name collision): its messages come from that user, without the BOT label.
      if (!systemBot) deps.logger.error(collisionMessage('switchyard', 'system'), { username: 'switchyard' });
      subscriptions = [
        await subscribeConfigUpdates(deps.bus, repositories.configStore, liveConfig),
        // Another replica's user changes: this instance's cached users (GET /users/me) are dropped.
        await subscribeUserCacheEviction(deps.bus, (userId) => users.evict(userId)),
      ];
      started = true;
      deps.logger.info('users-bots started');
    },
    stop: async () => {
      started = false;
      const running = subscriptions;
      subscriptions = [];
      await Promise.all(running.map((s) => s.stop()));
    },
    health,
  };
}
