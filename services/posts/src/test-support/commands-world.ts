import { defaultSystemConfig, MutableConfigView } from '@switchyard/system-config';
import { CachingChannelMemberRepository } from '../adapters/cache/caching-channel-member-repository';
import { CachingChannelRepository } from '../adapters/cache/caching-channel-repository';
import { ManualClock } from '@switchyard/ids';
import { memoryRepositories } from '../adapters/memory';
import { OutboxRelay } from '../domain/events/outbox-relay';
import type { Deps, EventSink, PostsRepositories } from '../domain/ports';
import { FakeUsers } from './fake-users';
import { RecordingSink } from './recording-sink';

/** Counts the calls of each method of `target` (by name) and passes them on. */
export function counting<T extends object>(target: T): { readonly proxy: T; readonly calls: Map<string, number> } {
  const calls = new Map<string, number>();
  const proxy = new Proxy(target, {
    get(object, name, receiver) {
      const value = Reflect.get(object, name, receiver) as unknown;
      if (typeof value !== 'function' || typeof name !== 'string') return value;
      return (...args: unknown[]) => {
        calls.set(name, (calls.get(name) ?? 0) + 1);
        return (value as (...a: unknown[]) => unknown).apply(object, args);
      };
    },
  });
  return { proxy, calls };
}

/** The use cases' deps as the app composes them (channel cache and counter batching, the real relay), over memory stores. */
export interface CommandsWorld {
  readonly deps: Deps;
  /** The stores under the caches (read them to compare worlds). */
  readonly stored: PostsRepositories;
  readonly users: FakeUsers;
  readonly sink: RecordingSink;
  readonly clock: ManualClock;
  /** Calls of the post store's methods, of the channel store's, of the sink's, and the use cases' calls of users-bots (the relay's left out). */
  readonly userCalls: Map<string, number>;
  readonly postCalls: Map<string, number>;
  readonly channelCalls: Map<string, number>;
  readonly sinkCalls: Map<string, number>;
  /** Resolves once the relay published everything and the counter writes finished. */
  settled(): Promise<void>;
}

/** What a publish carries (a test may look at it before the sink records it). */
export type PublishHook = (topic: string, messages: readonly { key: string; value: unknown }[]) => Promise<void>;

export function commandsWorld(options: { readonly beforePublish?: PublishHook } = {}): CommandsWorld {
  const stored = memoryRepositories();
  const posts = counting(stored.posts);
  const storedChannels = counting(stored.channels);
  const channels = new CachingChannelRepository(storedChannels.proxy);
  const members = new CachingChannelMemberRepository(stored.channelMembers);
  const users = new FakeUsers();
  const directory = counting(users);
  const recording = new RecordingSink();
  const sink = counting<EventSink>({
    publish: async (topic, messages) => {
      await options.beforePublish?.(topic, messages);
      await recording.publish(topic, messages);
    },
  });
  const clock = new ManualClock();
  const liveConfig = new MutableConfigView();
  liveConfig.replace(defaultSystemConfig());
  const repositories: PostsRepositories = { ...stored, posts: posts.proxy, channels, channelMembers: members };
  const relay = new OutboxRelay({ ...repositories, users, events: sink.proxy }, () => undefined);
  const deps: Deps = {
    ...repositories,
    cachedChannels: channels,
    cachedMembers: members,
    clock,
    users: directory.proxy,
    userNames: { idsByUsernames: async () => new Map() },
    events: sink.proxy,
    liveConfig,
    relay: (post, fresh) => relay.schedule(post, fresh),
    relayAll: (relayed) => relay.scheduleAll(relayed),
  };
  return {
    deps,
    stored,
    users,
    sink: recording,
    clock,
    userCalls: directory.calls,
    postCalls: posts.calls,
    channelCalls: storedChannels.calls,
    sinkCalls: sink.calls,
    settled: async () => {
      await relay.idle();
      await channels.countsWritten();
    },
  };
}
