/**
 * Rejects when `promise` has not settled within `ms` (the timer is cleared as soon as it settles). A plain
 * promise, not an async function racing a second one: what a long-poll forwarded through it keeps while it
 * waits (its timer, one promise) is multiplied by every poll waiting at once.
 */
export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
