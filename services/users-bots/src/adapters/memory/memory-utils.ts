import type { Page } from '../../domain/ports';

/** Copies in and out, so callers can never mutate what the store holds (as with a real database). */
export function copy<T>(value: T): T {
  return structuredClone(value);
}

export function paginate<T>(items: readonly T[], page: Page): T[] {
  const start = page.page * page.perPage;
  return items.slice(start, start + page.perPage);
}

export function byCreateThenId<T extends { createAt: number; id: string }>(a: T, b: T): number {
  return a.createAt - b.createAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}
