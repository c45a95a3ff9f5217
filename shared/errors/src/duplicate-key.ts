/**
 * Thrown by repository adapters when a unique key is taken; `key` names it in the domain's words (`id`,
 * `username`, `name`, `member`). Not an AppError: use cases decide which Mattermost error it becomes.
 * Matched by brand, so it works across package copies.
 */
export class DuplicateKeyError extends Error {
  public readonly brand = 'SwitchyardDuplicateKey' as const;
  public constructor(public readonly key: string) {
    super(`duplicate key: ${key}`);
    this.name = 'DuplicateKeyError';
  }
}

export function isDuplicateKeyError(error: unknown): error is DuplicateKeyError {
  return typeof error === 'object' && error !== null && (error as { brand?: unknown }).brand === 'SwitchyardDuplicateKey';
}
