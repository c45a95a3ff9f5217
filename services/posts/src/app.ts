import type { RequestListener } from 'node:http';
import type { EventBus, Subscription } from '@switchyard/event-bus';
import { identityMiddleware, type HealthReport, type ServiceTransport } from '@switchyard/http-kit';
import { serviceSetup } from '@switchyard/live-config';
import type { Logger } from '@switchyard/logger';
import { MutableConfigView } from '@switchyard/system-config';
import { systemClock } from '@switchyard/ids';
import { CachingChannelMemberRepository } from './adapters/cache/caching-channel-member-repository';
import { CachingChannelRepository } from './adapters/cache/caching-channel-repository';
import { HttpUsersDirectory } from './adapters/http/users-directory.http';
import { HttpUserNames } from './adapters/http/user-names.http';
import type { UserNames } from './domain/search/user-names.port';
import { HttpOnlineUsers } from './adapters/http/online-users.http';
import { HttpCrtPreferences } from './adapters/http/crt-preferences.http';
import { HttpMentionSettings } from './adapters/http/mention-settings.http';
import { CachingMentionSettings } from './adapters/cache/caching-mention-settings';
import { memoryRepositories, ScanningPostSearch } from './adapters/memory';
import type { PostsConfig } from './config';
import { OutboxRelay, type MentionReader } from './domain/events/outbox-relay';
import { mentionedMembers } from './domain/channels/mentioned-members';
import type { Clock, Deps, EventSink, PostsRepositories, UsersDirectory } from './domain/ports';
import { channelsRoutes } from './entry-points/http/channels.routes';
import type { HttpContext } from './entry-points/http/http-context';
import { internalFilesRoutes } from './entry-points/http/internal-files.routes';
import { internalHookFilesRoutes } from './entry-points/http/internal-hook-files.routes';
import { internalFileSettingsRoutes } from './entry-points/http/internal-file-settings.routes';
import { internalRoutes } from './entry-points/http/internal.routes';
import { channelViewsRoutes } from './entry-points/http/channel-views.routes';
import { userThreadsRoutes } from './entry-points/http/user-threads.routes';
import { emojiRoutes } from './entry-points/http/emoji.routes';
import type { EmojiDeps } from './domain/emoji/emoji-deps';
import { SharpEmojiImages } from './adapters/images/sharp-emoji-images';
import { isSystemEmojiName } from './adapters/emoji/system-emoji-names';
import { hookPostsRoutes } from './entry-points/http/hook-posts.routes';
import { groupChannelsRoutes } from './entry-points/http/group-channels.routes';
import { pinsRoutes } from './entry-points/http/pins.routes';
import { postsRoutes } from './entry-points/http/posts.routes';
import { reactionsRoutes } from './entry-points/http/reactions.routes';
import { searchRoutes } from './entry-points/http/search.routes';
import { repositorySearchScope } from './domain/search/search-scope.port';
import { channelsSearchRoutes } from './entry-points/http/channels-search.routes';
import { channelAutocompleteRoutes } from './entry-points/http/channel-autocomplete.routes';
import { FileStoreFromSettings } from './adapters/files/file-store-from-settings';
import { S3FileStore } from './adapters/files/s3-file-store';
import { describeOverrides, fileSettingsOverrides } from './file-settings-env';
import { ImageThreadPriority } from './adapters/images/image-thread-priority';
import { SharpImageProcessor } from './adapters/images/sharp-image-processor';
import type { FilesDeps } from './domain/files/files-deps';
import { filesRoutes } from './entry-points/http/files.routes';
import { fileMetrics } from '@switchyard/metrics';
import { subscribeChannelCacheEviction } from './entry-points/kafka/channel-cache-eviction.consumer';
import { subscribePostCommands } from './entry-points/kafka/post-create.consumer';
import { subscribeTeamEvents } from './entry-points/kafka/team-events.consumer';
import { subscribeUserSettingsEviction } from './entry-points/kafka/user-settings-eviction.consumer';

export const SERVICE_NAME = 'posts';

export interface PostsDeps {
  readonly logger: Logger;
  readonly bus: EventBus;
  /** How other services (users-bots, posts, ...) are reached. */
  readonly transport: ServiceTransport;
  /** Adapters to use instead of the in-process ones (e.g. mongoose repositories). */
  readonly repositories?: Partial<PostsRepositories>;
  readonly clock?: Clock;
  /** users-bots as posts needs it; default: its internal API over `transport`. */
  readonly users?: UsersDirectory;
  /** users-bots' username look-up; default: its internal API over `transport`. */
  readonly userNames?: UserNames;
  /** Where events are published; default: `bus` (tests inject failing sinks). */
  readonly events?: EventSink;
}

export interface PostsApp {
  readonly handler: RequestListener;
  readonly liveConfig: MutableConfigView;
  /** The outbox relay (tests wait for it with `idle()` and trigger `sweep()`). */
  readonly outbox: OutboxRelay;
  start(): Promise<void>;
  stop(): Promise<void>;
  health(): Promise<HealthReport>;
}

/** Composition root: adapters → use-case deps → HTTP routes and consumers. */
export function createPostsApp(config: Readonly<PostsConfig>, deps: PostsDeps): PostsApp {
  const setup = serviceSetup({ service: SERVICE_NAME, config, logger: deps.logger, bus: deps.bus, transport: deps.transport });
  const { keys, liveConfig, systemConfig } = setup;
  const given = deps.repositories ?? {};
  const merged: PostsRepositories = { ...memoryRepositories(), ...given };
  // Search reads the posts store it was built on: given posts without their index are scanned.
  const stored: PostsRepositories = given.posts && !given.search ? { ...merged, search: new ScanningPostSearch(given.posts) } : merged;
  const channels = new CachingChannelRepository(stored.channels);
  const members = new CachingChannelMemberRepository(stored.channelMembers);
  const repositories: PostsRepositories = { ...stored, channels, channelMembers: members };
  const users = deps.users ?? new HttpUsersDirectory(deps.transport, keys);
  const userNames = deps.userNames ?? new HttpUserNames(deps.transport, keys);
  const events: EventSink = deps.events ?? deps.bus;
  // A post.created published without the mentions its write counted (sweep, held run) reads them again as that write did.
  // Users' notify props read for mentions; a user's entry leaves at once when users.events says the user changed.
  const mentionSettings = new CachingMentionSettings(new HttpMentionSettings(deps.transport, keys));
  const mentionsOf: MentionReader = (post, channel) => mentionedMembers(domain, post, channel);
  const outbox = new OutboxRelay({ ...repositories, users, events, mentionsOf }, (error, postId) => deps.logger.warn('outbox: publishing failed; the sweep will retry', { post_id: postId, error }));
  const domain: Deps = {
    ...repositories,
    cachedChannels: channels,
    cachedMembers: members,
    clock: deps.clock ?? systemClock,
    users,
    userNames,
    onlineUsers: new HttpOnlineUsers(deps.transport, keys),
    crtPreferences: new HttpCrtPreferences(deps.transport, keys),
    mentionSettings,
    events,
    liveConfig,
    relay: (post, fresh) => outbox.schedule(post, fresh),
    relayAll: (posts) => outbox.scheduleAll(posts),
  };
  let started = false;
  let subscriptions: Subscription[] = [];
  let sweepTimer: NodeJS.Timeout | undefined;

  const health = setup.readiness(() => started);
  const http = setup.httpApp(health);
  http.app.use(identityMiddleware(() => keys));
  const context: HttpContext = {
    deps: domain,
    withBody: setup.withBody,
    internalSecret: keys,
  };
  const scope = stored.searchScope ?? repositorySearchScope(channels, members);
  http.app.use(searchRoutes(context, { search: stored.search, scope, userNames }));
  http.app.use(channelAutocompleteRoutes(context));
  http.app.use(channelsSearchRoutes(context));
  // The storage keys the environment fixes (MM_FILESETTINGS_*: a deployment's object store) win over the document's.
  const fileOverrides = fileSettingsOverrides(config);
  const fileStores = new FileStoreFromSettings(() => ({ ...liveConfig.current().FileSettings, ...fileOverrides }), config.DATA_DIR);
  const filesDeps: FilesDeps = { ...domain, fileStore: () => fileStores.current(), images: new SharpImageProcessor(undefined, new ImageThreadPriority(config.IMAGE_THREAD_NICE)), metrics: fileMetrics };
  // Before the posts routes: GET /posts/{id}/files/info is more specific than their /posts/{id}/... routes.
  http.app.use(filesRoutes(filesDeps));
  http.app.use(internalHookFilesRoutes(context, filesDeps));
  http.app.use(internalFileSettingsRoutes(context.internalSecret, fileOverrides));
  for (const routes of [internalRoutes, internalFilesRoutes, hookPostsRoutes, groupChannelsRoutes, channelViewsRoutes, userThreadsRoutes, channelsRoutes, postsRoutes, reactionsRoutes, pinsRoutes]) http.app.use(routes(context));
  const emojiDeps: EmojiDeps = { ...domain, fileStore: () => fileStores.current(), images: new SharpEmojiImages(), isSystemEmojiName };
  http.app.use(emojiRoutes(context, emojiDeps));
  const app = http.finalize();

  const sweep = async (): Promise<void> => {
    try {
      const swept = await outbox.sweep();
      if (swept > 0) deps.logger.info('outbox: republished pending post events', { posts: swept });
    } catch (error) {
      deps.logger.warn('outbox: sweep failed', { error });
    }
  };

  return {
    handler: app as unknown as RequestListener,
    liveConfig,
    outbox,
    start: async () => {
      await systemConfig.start();
      subscriptions = [
        // Channels and memberships changed through another replica leave this one's caches (before commands are taken).
        await subscribeChannelCacheEviction(deps.bus, (channelId) => {
          channels.evict(channelId);
          members.evictChannel(channelId);
        }),
        await subscribePostCommands(deps.bus, filesDeps, deps.logger),
        await subscribeTeamEvents(deps.bus, domain, deps.logger),
        await subscribeUserSettingsEviction(deps.bus, (userId) => {
          mentionSettings.evict(userId);
          userNames.forget?.(userId);
        }),
      ];
      await sweep();
      // The file store is checked once at start (the bucket created when FILES_CREATE_BUCKET allows it): a missing
      // bucket, refused keys or an unwritable directory are logged clearly; posts keeps serving everything else.
      if (liveConfig.current().FileSettings.EnableFileAttachments) {
        const store = fileStores.current();
        if (Object.keys(fileOverrides).length > 0) deps.logger.info('file store: FileSettings from the environment', describeOverrides(fileOverrides));
        try {
          await (store instanceof S3FileStore ? store.check(config.FILES_CREATE_BUCKET === true) : store.check());
        } catch (error) {
          const hint = store instanceof S3FileStore && config.FILES_CREATE_BUCKET !== true ? ' (create the bucket, or set FILES_CREATE_BUCKET=true to let posts create it)' : '';
          deps.logger.error(`file store unusable: uploads will fail${hint}`, { error });
        }
      }
      const interval = config.OUTBOX_SWEEP_INTERVAL_MS ?? 15_000;
      if (interval > 0) {
        sweepTimer = setInterval(() => void sweep(), interval);
        sweepTimer.unref();
      }
      started = true;
      deps.logger.info('posts started');
    },
    stop: async () => {
      started = false;
      if (sweepTimer) clearInterval(sweepTimer);
      sweepTimer = undefined;
      await Promise.all(subscriptions.map((s) => s.stop()));
      subscriptions = [];
      await outbox.idle();
      await channels.countsWritten();
      await systemConfig.stop();
      fileStores.close();
    },
    health,
  };
}
