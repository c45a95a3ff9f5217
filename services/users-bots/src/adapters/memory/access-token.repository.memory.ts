import type { AccessToken } from '../../domain/entities';
import { DuplicateKeyError } from '../../domain/errors';
import type { AccessTokenRepository, Page } from '../../domain/ports';
import { byCreateThenId, copy, paginate } from './memory-utils';

export class MemoryAccessTokenRepository implements AccessTokenRepository {
  private readonly byId = new Map<string, AccessToken>();
  private readonly idByTokenHash = new Map<string, string>();

  public async insert(token: AccessToken): Promise<void> {
    if (this.byId.has(token.id)) throw new DuplicateKeyError('id');
    if (this.idByTokenHash.has(token.tokenHash)) throw new DuplicateKeyError('tokenHash');
    this.byId.set(token.id, copy(token));
    this.idByTokenHash.set(token.tokenHash, token.id);
  }

  public async findById(id: string): Promise<AccessToken | undefined> {
    const token = this.byId.get(id);
    return token ? copy(token) : undefined;
  }

  public async findByTokenHash(tokenHash: string): Promise<AccessToken | undefined> {
    const id = this.idByTokenHash.get(tokenHash);
    return id === undefined ? undefined : this.findById(id);
  }

  public async listByUser(userId: string, page: Page): Promise<AccessToken[]> {
    return paginate([...this.byId.values()].filter((t) => t.userId === userId).sort(byCreateThenId), page).map(copy);
  }

  public async listAll(page: Page): Promise<AccessToken[]> {
    return paginate([...this.byId.values()].sort(byCreateThenId), page).map(copy);
  }

  public async setActive(id: string, isActive: boolean): Promise<AccessToken | undefined> {
    const token = this.byId.get(id);
    if (!token) return undefined;
    const next = { ...token, isActive };
    this.byId.set(id, next);
    return copy(next);
  }

  public async deleteById(id: string): Promise<boolean> {
    const token = this.byId.get(id);
    if (!token) return false;
    this.byId.delete(id);
    this.idByTokenHash.delete(token.tokenHash);
    return true;
  }

  public async deleteByUser(userId: string): Promise<string[]> {
    const ids = [...this.byId.values()].filter((t) => t.userId === userId).map((t) => t.id);
    for (const id of ids) await this.deleteById(id);
    return ids;
  }
}
