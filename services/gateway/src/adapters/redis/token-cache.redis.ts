import type { Redis } from 'ioredis';
import type { ResolvedSession } from '@switchyard/contracts';
import type { TokenCache } from '../../domain/ports';

export interface RedisTokenCacheOptions {
  readonly redis: Redis;
  /** Prepended to every key (deployment / test isolation). */
  readonly keyPrefix?: string;
  /** Quit the client on close() (only when this cache created it). Default false. */
  readonly ownsClient?: boolean;
}

/**
 * Deletes the user's index set and every entry it names that still belongs to that user (an entry's
 * value starts with `<userId>\n`): a token hash re-cached for another user survives. One script, so a
 * concurrent `set` cannot slip between reading the index and deleting.
 */
const EVICT_USER = `
local members = redis.call('SMEMBERS', KEYS[1])
local owner = ARGV[2] .. '\\n'
for _, hash in ipairs(members) do
  local key = ARGV[1] .. hash
  local value = redis.call('GET', key)
  if value and string.sub(value, 1, #owner) == owner then redis.call('DEL', key) end
end
redis.call('DEL', KEYS[1])
return #members
`;

/**
 * The token cache shared by every gateway replica: `<prefix>tc:<tokenHash>` holds `<userId>\n<session JSON>`
 * with the entry's TTL; `<prefix>tcu:<userId>` is the set of that user's token hashes (kept as long as
 * its longest entry) so that a revocation seen by any replica evicts the user everywhere at once.
 * Keys are sha256 hashes of tokens, never tokens.
 */
export class RedisTokenCache implements TokenCache {
  private readonly redis: Redis;
  private readonly prefix: string;

  public constructor(private readonly options: RedisTokenCacheOptions) {
    this.redis = options.redis;
    this.prefix = options.keyPrefix ?? '';
  }

  public async get(tokenHash: string): Promise<ResolvedSession | undefined> {
    const value = await this.redis.get(this.entryKey(tokenHash));
    if (value === null) return undefined;
    const newline = value.indexOf('\n');
    if (newline < 0) return undefined;
    return JSON.parse(value.slice(newline + 1)) as ResolvedSession;
  }

  public async set(tokenHash: string, session: ResolvedSession, ttlMs: number): Promise<void> {
    if (ttlMs <= 0) return;
    const ttl = Math.ceil(ttlMs);
    const userKey = this.userKey(session.userId);
    await this.redis
      .multi()
      .set(this.entryKey(tokenHash), `${session.userId}\n${JSON.stringify(session)}`, 'PX', ttl)
      .sadd(userKey, tokenHash)
      // GT: never shorten the index below an entry it already names.
      .pexpire(userKey, ttl, 'GT')
      .pexpire(userKey, ttl, 'NX')
      .exec();
  }

  public async evictUser(userId: string): Promise<void> {
    await this.redis.eval(EVICT_USER, 1, this.userKey(userId), `${this.prefix}tc:`, userId);
  }

  public async health(): Promise<boolean> {
    try {
      return (await this.redis.ping()) === 'PONG';
    } catch {
      return false;
    }
  }

  public async close(): Promise<void> {
    if (this.options.ownsClient) await this.redis.quit();
  }

  private entryKey(tokenHash: string): string {
    return `${this.prefix}tc:${tokenHash}`;
  }

  private userKey(userId: string): string {
    return `${this.prefix}tcu:${userId}`;
  }
}
