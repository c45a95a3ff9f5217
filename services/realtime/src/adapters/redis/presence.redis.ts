import type { Redis } from 'ioredis';
import type { Clock, PresenceStore } from '../../domain/ports';

export interface RedisPresenceOptions {
  /** REDIS_KEY_PREFIX. */
  readonly prefix: string;
  readonly replicaId: string;
  /** A replica that stops refreshing (killed) stops counting after this. */
  readonly ttlMs: number;
  readonly clock: Clock;
  readonly onError: (error: unknown) => void;
}

/** SADD/SMISMEMBER batch size (bounded argument lists). */
const CHUNK = 1_000;

/**
 * Presence in Redis (docs/adr/0012): one set of user ids per replica, with a TTL, and a sorted set of the
 * replicas scored by when they expire. Each replica refreshes both every ttl/3, re-adding its users, so a
 * write lost while Redis was away comes back and a killed replica's users go offline after the TTL.
 */
export class RedisPresence implements PresenceStore {
  private readonly local = new Set<string>();
  private readonly replicasKey: string;
  private readonly usersKey: string;
  private timer: NodeJS.Timeout | undefined;
  /** Whether this replica was the first live one (by id) at its latest refresh. */
  private leader = true;

  public constructor(private readonly redis: Redis, private readonly options: RedisPresenceOptions) {
    this.replicasKey = `${options.prefix}realtime:presence:replicas`;
    this.usersKey = `${options.prefix}realtime:presence:replica:${options.replicaId}`;
  }

  /** Registers this replica and refreshes it every ttl/3. */
  public async start(): Promise<void> {
    await this.refresh();
    this.timer = setInterval(() => {
      this.refresh().catch(this.options.onError);
    }, Math.max(50, Math.floor(this.options.ttlMs / 3)));
    this.timer.unref();
  }

  public set(userId: string, online: boolean): void {
    if (online) this.local.add(userId);
    else this.local.delete(userId);
    const write = online
      ? this.redis.multi().sadd(this.usersKey, userId).pexpire(this.usersKey, this.options.ttlMs).zadd(this.replicasKey, this.expiry(), this.options.replicaId).exec()
      : this.redis.srem(this.usersKey, userId);
    write.catch(this.options.onError);
  }

  public async onlineAmong(userIds: readonly string[]): Promise<ReadonlySet<string>> {
    const online = new Set<string>();
    if (userIds.length === 0) return online;
    const replicas = await this.liveReplicas();
    if (replicas.length === 0) return online;
    const pipeline = this.redis.pipeline();
    const asked: string[][] = [];
    for (let i = 0; i < userIds.length; i += CHUNK) {
      const chunk = userIds.slice(i, i + CHUNK);
      for (const replica of replicas) {
        pipeline.smismember(this.keyOf(replica), ...chunk);
        asked.push(chunk);
      }
    }
    const answers = (await pipeline.exec()) ?? [];
    answers.forEach(([error, flags], n) => {
      if (error) throw error;
      const chunk = asked[n] ?? [];
      (flags as number[]).forEach((flag, i) => {
        const id = chunk[i];
        if (flag === 1 && id !== undefined) online.add(id);
      });
    });
    return online;
  }

  public async onlineUsers(): Promise<readonly string[]> {
    const replicas = await this.liveReplicas();
    if (replicas.length === 0) return [];
    return this.redis.sunion(...replicas.map((r) => this.keyOf(r)));
  }

  public leads(): boolean {
    return this.leader;
  }

  public async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.local.clear();
    await this.redis.multi().del(this.usersKey).zrem(this.replicasKey, this.options.replicaId).exec();
  }

  /** Re-registers this replica and its users with a fresh TTL (the timer's work, every ttl/3). */
  public async refresh(): Promise<void> {
    const now = this.options.clock.now();
    const tx = this.redis.multi().zadd(this.replicasKey, now + this.options.ttlMs, this.options.replicaId).zremrangebyscore(this.replicasKey, '-inf', now);
    const users = [...this.local];
    for (let i = 0; i < users.length; i += CHUNK) tx.sadd(this.usersKey, ...users.slice(i, i + CHUNK));
    tx.pexpire(this.usersKey, this.options.ttlMs);
    tx.zrangebyscore(this.replicasKey, `(${now}`, '+inf');
    const answers = await tx.exec();
    const live = answers?.[answers.length - 1]?.[1];
    if (Array.isArray(live)) this.leader = !live.some((id) => typeof id === 'string' && id < this.options.replicaId);
  }

  private async liveReplicas(): Promise<string[]> {
    return this.redis.zrangebyscore(this.replicasKey, `(${this.options.clock.now()}`, '+inf');
  }

  private keyOf(replicaId: string): string {
    return `${this.options.prefix}realtime:presence:replica:${replicaId}`;
  }

  private expiry(): number {
    return this.options.clock.now() + this.options.ttlMs;
  }
}
