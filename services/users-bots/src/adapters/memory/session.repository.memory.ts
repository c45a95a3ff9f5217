import type { Session } from '../../domain/entities';
import { DuplicateKeyError } from '../../domain/errors';
import type { SessionRepository } from '../../domain/ports';
import { copy } from './memory-utils';

export class MemorySessionRepository implements SessionRepository {
  private readonly byId = new Map<string, Session>();
  private readonly idByTokenHash = new Map<string, string>();

  public async insert(session: Session): Promise<void> {
    if (this.byId.has(session.id)) throw new DuplicateKeyError('id');
    if (this.idByTokenHash.has(session.tokenHash)) throw new DuplicateKeyError('tokenHash');
    this.byId.set(session.id, copy(session));
    this.idByTokenHash.set(session.tokenHash, session.id);
  }

  public async findById(id: string): Promise<Session | undefined> {
    const session = this.byId.get(id);
    return session ? copy(session) : undefined;
  }

  public async findByTokenHash(tokenHash: string): Promise<Session | undefined> {
    const id = this.idByTokenHash.get(tokenHash);
    return id === undefined ? undefined : this.findById(id);
  }

  public async listByUser(userId: string): Promise<Session[]> {
    return [...this.byId.values()].filter((s) => s.userId === userId).map(copy);
  }

  public async deleteById(id: string): Promise<boolean> {
    const session = this.byId.get(id);
    if (!session) return false;
    this.byId.delete(id);
    this.idByTokenHash.delete(session.tokenHash);
    return true;
  }

  public async deleteByUser(userId: string): Promise<string[]> {
    return this.deleteWhere((s) => s.userId === userId);
  }

  public async deleteByTokenId(tokenId: string): Promise<string[]> {
    if (tokenId === '') return [];
    return this.deleteWhere((s) => s.tokenId === tokenId);
  }

  private deleteWhere(predicate: (s: Session) => boolean): string[] {
    const ids = [...this.byId.values()].filter(predicate).map((s) => s.id);
    for (const id of ids) {
      const session = this.byId.get(id);
      this.byId.delete(id);
      if (session) this.idByTokenHash.delete(session.tokenHash);
    }
    return ids;
  }
}
