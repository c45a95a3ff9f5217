import type { Redis } from 'ioredis';
import { STATUS_VALUES, type StatusValue, type StoredStatus } from '../../domain/statuses/status';
import type { StatusStore } from '../../domain/statuses/status-store';

/** HMGET batch size (bounded argument lists). */
const CHUNK = 1_000;

const isStatus = (value: unknown): value is StatusValue => typeof value === 'string' && (STATUS_VALUES as readonly string[]).includes(value);

/** One hash `realtime:statuses` (REDIS_KEY_PREFIX first): user id → the stored status as JSON. */
export class RedisStatusStore implements StatusStore {
  private readonly key: string;

  public constructor(private readonly redis: Redis, prefix: string) {
    this.key = `${prefix}realtime:statuses`;
  }

  public async get(userIds: readonly string[]): Promise<ReadonlyMap<string, StoredStatus>> {
    const out = new Map<string, StoredStatus>();
    for (let i = 0; i < userIds.length; i += CHUNK) {
      const chunk = userIds.slice(i, i + CHUNK);
      const values = await this.redis.hmget(this.key, ...chunk);
      values.forEach((value, index) => {
        const parsed = value === null ? undefined : parse(value);
        const userId = chunk[index];
        if (parsed && userId !== undefined) out.set(userId, { ...parsed, userId });
      });
    }
    return out;
  }

  public async put(status: StoredStatus): Promise<void> {
    await this.redis.hset(this.key, status.userId, JSON.stringify(status));
  }
}

function parse(text: string): StoredStatus | undefined {
  try {
    const value = JSON.parse(text) as Partial<StoredStatus>;
    if (!isStatus(value.status) || !isStatus(value.prevStatus)) return undefined;
    return {
      userId: String(value.userId ?? ''),
      status: value.status,
      manual: value.manual === true,
      lastActivityAt: Number(value.lastActivityAt) || 0,
      dndEndTime: Number(value.dndEndTime) || 0,
      prevStatus: value.prevStatus,
      socket: value.socket === true,
    };
  } catch {
    return undefined;
  }
}
