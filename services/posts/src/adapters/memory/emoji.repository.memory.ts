import type { Emoji } from '../../domain/emoji/emoji';
import type { EmojiRepository } from '../../domain/emoji/emoji-ports';
import { DuplicateKeyError } from '../../domain/errors';
import { compareIds, copy } from './memory-utils';

const byName = (a: Emoji, b: Emoji): number => compareIds(a.name, b.name) || compareIds(a.id, b.id);
const byCreation = (a: Emoji, b: Emoji): number => a.create_at - b.create_at || compareIds(a.id, b.id);

export class MemoryEmojiRepository implements EmojiRepository {
  private readonly byId = new Map<string, Emoji>();

  private live(): Emoji[] {
    return [...this.byId.values()].filter((e) => e.delete_at === 0);
  }

  public async insert(emoji: Emoji): Promise<void> {
    if (this.byId.has(emoji.id)) throw new DuplicateKeyError('id');
    if (emoji.delete_at === 0 && this.live().some((e) => e.name === emoji.name)) throw new DuplicateKeyError('name');
    this.byId.set(emoji.id, copy(emoji));
  }

  public async findById(id: string): Promise<Emoji | undefined> {
    const emoji = this.byId.get(id);
    return emoji && emoji.delete_at === 0 ? copy(emoji) : undefined;
  }

  public async findByName(name: string): Promise<Emoji | undefined> {
    const emoji = this.live().find((e) => e.name === name);
    return emoji ? copy(emoji) : undefined;
  }

  public async findByNames(names: readonly string[]): Promise<Emoji[]> {
    const wanted = new Set(names);
    return this.live().filter((e) => wanted.has(e.name)).map(copy);
  }

  public async list(offset: number, limit: number, sortByName: boolean): Promise<Emoji[]> {
    if (!(limit > 0) || offset < 0) return [];
    return this.live()
      .sort(sortByName ? byName : byCreation)
      .slice(offset, offset + limit)
      .map(copy);
  }

  public async search(term: string, prefixOnly: boolean, limit: number): Promise<Emoji[]> {
    if (!(limit > 0)) return [];
    return this.live()
      .filter((e) => (prefixOnly ? e.name.startsWith(term) : e.name.includes(term)))
      .sort(byName)
      .slice(0, limit)
      .map(copy);
  }

  public async softDelete(id: string, at: number): Promise<boolean> {
    const emoji = this.byId.get(id);
    if (!emoji || emoji.delete_at !== 0) return false;
    this.byId.set(id, { ...emoji, delete_at: at, update_at: at });
    return true;
  }
}
