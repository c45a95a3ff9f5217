import type { Preference } from '../../domain/preferences/preference';
import type { PreferenceRepository } from '../../domain/preferences/preference-ports';

const keyOf = (userId: string, category: string, name: string): string => JSON.stringify([userId, category, name]);
const order = (a: Preference, b: Preference): number => (a.category < b.category ? -1 : a.category > b.category ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

export class MemoryPreferenceRepository implements PreferenceRepository {
  private readonly byKey = new Map<string, Preference>();

  public async listByUser(userId: string): Promise<Preference[]> {
    return [...this.byKey.values()].filter((p) => p.user_id === userId).sort(order).map((p) => ({ ...p }));
  }

  public async listByCategory(userId: string, category: string): Promise<Preference[]> {
    return (await this.listByUser(userId)).filter((p) => p.category === category);
  }

  public async find(userId: string, category: string, name: string): Promise<Preference | undefined> {
    const p = this.byKey.get(keyOf(userId, category, name));
    return p ? { ...p } : undefined;
  }

  public async save(preferences: readonly Preference[]): Promise<void> {
    for (const p of preferences) this.byKey.set(keyOf(p.user_id, p.category, p.name), { user_id: p.user_id, category: p.category, name: p.name, value: p.value });
  }

  public async delete(userId: string, category: string, name: string): Promise<boolean> {
    return this.byKey.delete(keyOf(userId, category, name));
  }

  public async valuesOf(userIds: readonly string[], category: string, name: string): Promise<ReadonlyMap<string, string>> {
    const out = new Map<string, string>();
    for (const id of userIds) {
      const p = this.byKey.get(keyOf(id, category, name));
      if (p) out.set(id, p.value);
    }
    return out;
  }
}
