import type { Page } from '../../domain/ports';

/** Copies in and out, so callers can never mutate what the store holds (as with a real database). */
export function copy<T>(value: T): T {
  return structuredClone(value);
}

export function paginate<T>(items: readonly T[], page: Page): T[] {
  if (!(page.perPage > 0) || page.page < 0) return [];
  const start = page.page * page.perPage;
  return items.slice(start, start + page.perPage);
}

export const compareIds = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
