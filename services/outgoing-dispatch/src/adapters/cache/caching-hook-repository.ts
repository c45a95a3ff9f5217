import type { OutgoingHook } from '../../domain/entities';
import { ReadThroughCache } from '@switchyard/read-cache';
import type { HookChanges, HookQuery, OutgoingHookRepository } from '../../domain/ports';

/** How long a team's hooks are reused when no change was seen (a change anywhere evicts them sooner). */
export const HOOKS_BY_TEAM_TTL_MS = 30_000;
const MAX_TEAMS = 10_000;
const EMPTY: readonly OutgoingHook[] = Object.freeze([]);
const BOT_HOOKS_KEY = 'bot-hooks';

/**
 * The hook repository with a read cache of `findByTeam` (one lookup per created post, nearly always the
 * same few teams, nearly always without hooks): a team's hooks are reused for the TTL. A write through
 * this repository evicts the team here and announces the change (`HookChanges`), and `evictTeam` (this
 * instance's hook-changes consumer) drops what another replica changed. A read that overlapped an
 * eviction is not cached, so an eviction is never undone by a read of the older state.
 */
export class CachingHookRepository implements OutgoingHookRepository {
  /** A team's hooks, frozen; a read that started before an eviction is not cached. */
  private readonly byTeam: ReadThroughCache<readonly OutgoingHook[]>;
  private readonly botHooks: ReadThroughCache<readonly OutgoingHook[]>;

  public constructor(
    private readonly store: OutgoingHookRepository,
    private readonly changes: HookChanges,
    ttlMs = HOOKS_BY_TEAM_TTL_MS,
    now: () => number = Date.now,
  ) {
    this.byTeam = new ReadThroughCache({ ttlMs, maxEntries: MAX_TEAMS, now });
    this.botHooks = new ReadThroughCache({ ttlMs, maxEntries: 1, now });
  }

  /** The per-type index of each cached team list (built on first use, dropped with the list). */
  private readonly byType = new WeakMap<readonly OutgoingHook[], Map<string, readonly OutgoingHook[]>>();

  public async findByTeam(teamId: string): Promise<OutgoingHook[]> {
    return [...(await this.cachedTeam(teamId))];
  }

  /** The team's hooks hearing `type`, from an index of the cached list: no scan of non-matching hooks. */
  public findByTeamAndType(teamId: string, type: string): Promise<readonly OutgoingHook[]> {
    // Every post of a team with hooks asks this (twice when one may match): a cached list answers without
    // another async step, as findBotHooksByType does.
    const cached = this.byTeam.peek(teamId);
    if (cached) return Promise.resolve(typeIndex(this.byType, cached).get(type) ?? EMPTY);
    return this.cachedTeam(teamId).then((hooks) => typeIndex(this.byType, hooks).get(type) ?? EMPTY);
  }

  private async cachedTeam(teamId: string): Promise<readonly OutgoingHook[]> {
    return (await this.byTeam.get(teamId, async () => Object.freeze([...(await this.store.findByTeam(teamId))]))) ?? EMPTY;
  }

  /** Every live bot hook, cached like a team's hooks; any hook change drops it (a bot hook may be in any team). */
  public async findBotHooks(): Promise<OutgoingHook[]> {
    return [...(await this.cachedBotHooks())];
  }

  /** The live bot hooks hearing `type`, from an index of the cached list. */
  public findBotHooksByType(type: string): Promise<readonly OutgoingHook[]> {
    // Every event without a team listener asks this: a cached list answers without another async step.
    const cached = this.botHooks.peek(BOT_HOOKS_KEY);
    if (cached) return Promise.resolve(typeIndex(this.byType, cached).get(type) ?? EMPTY);
    return this.cachedBotHooks().then((hooks) => typeIndex(this.byType, hooks).get(type) ?? EMPTY);
  }

  private async cachedBotHooks(): Promise<readonly OutgoingHook[]> {
    return (await this.botHooks.get(BOT_HOOKS_KEY, async () => Object.freeze([...(await this.store.findBotHooks())]))) ?? EMPTY;
  }

  public evictTeam(teamId: string): void {
    this.byTeam.evict(teamId);
    this.botHooks.evict(BOT_HOOKS_KEY);
  }

  public async insert(hook: OutgoingHook): Promise<void> {
    this.evictTeam(hook.teamId);
    await this.store.insert(hook);
    await this.changed(hook);
  }

  public async replace(hook: OutgoingHook): Promise<boolean> {
    this.evictTeam(hook.teamId);
    const replaced = await this.store.replace(hook);
    await this.changed(hook);
    return replaced;
  }

  public findById(id: string): Promise<OutgoingHook | undefined> {
    return this.store.findById(id);
  }

  public list(query: HookQuery): Promise<OutgoingHook[]> {
    return this.store.list(query);
  }

  /** Evicted again after the write (a read in between saw the old state) and told to the other replicas. */
  private async changed(hook: OutgoingHook): Promise<void> {
    this.evictTeam(hook.teamId);
    await this.changes.hookChanged({ id: hook.id, teamId: hook.teamId });
  }
}

/** The per-type index of a cached (frozen) hook list, built on first use and dropped with the list. */
function typeIndex(indexes: WeakMap<readonly OutgoingHook[], Map<string, readonly OutgoingHook[]>>, hooks: readonly OutgoingHook[]): Map<string, readonly OutgoingHook[]> {
  let index = indexes.get(hooks);
  if (!index) {
    index = new Map();
    for (const hook of hooks) {
      for (const t of hook.eventTypes) index.set(t, [...(index.get(t) ?? []), hook]);
    }
    indexes.set(hooks, index);
  }
  return index;
}
