/** A mistake in how the CLI was called (exit code 2). */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export function isUsageError(error: unknown): error is UsageError {
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'UsageError';
}
