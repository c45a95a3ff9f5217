/** How long one readiness check may take: under the probes' 2 s timeout, so a hung dependency is "failing", not a probe timeout. */
export const CHECK_TIMEOUT_MS = 1_000;

/**
 * A health check's answer within `ms`: false when it rejects or has not answered by then. A dependency
 * that is down often hangs (a connect that waits, a client queueing commands offline) instead of failing:
 * the readiness endpoint must still answer in time, and the grace logic above it decide (ADR 0025).
 */
export async function boundedCheck(check: () => Promise<boolean>, ms = CHECK_TIMEOUT_MS): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([check().catch(() => false), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
