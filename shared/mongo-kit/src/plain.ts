/** A lean document as a plain object: `_id` becomes `id`, mongoose's `__v` is dropped. */
export function toPlain<T>(doc: unknown): T {
  const { _id, __v: _version, ...rest } = doc as { _id: unknown; __v?: unknown } & Record<string, unknown>;
  return { id: String(_id), ...rest } as T;
}

/** The reverse: a domain object with `id` as the document `_id`. */
export function toDocument<T extends { id: string }>(entity: T): Omit<T, 'id'> & { _id: string } {
  const { id, ...rest } = entity;
  return { _id: id, ...rest };
}

/** MongoDB's duplicate-key error (unique index violation). */
export function isDuplicateKeyError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 11000;
}

/** Which unique key was violated, when the server says (`index: username_1 dup key`). */
export function duplicateKeyField(error: unknown): string | undefined {
  const e = error as { keyPattern?: Record<string, unknown>; message?: string };
  if (e.keyPattern) return Object.keys(e.keyPattern)[0];
  const match = /index: (\w+?)_\d/.exec(e.message ?? '');
  return match?.[1];
}
