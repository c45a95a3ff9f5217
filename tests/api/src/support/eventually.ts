/**
 * How long a black-box test waits for something the server does on its own time (an event through the
 * distributed pipeline, a config change reaching every service). A passing test never waits it out: every
 * wait returns as soon as its condition holds, so the bound only decides when a broken server is reported,
 * and on a loaded 2-core box a pipeline can take seconds. API_WAIT_MS overrides it.
 */
export const WAIT_MS = Number(process.env.API_WAIT_MS ?? 30_000);

/** How often `eventually` checks again. */
const EVERY_MS = 25;

/**
 * Checks until `check` returns something other than undefined and returns that; throws, naming `what`, once
 * `timeoutMs` has passed without it.
 */
export async function eventually<T>(what: string, check: () => Promise<T | undefined> | T | undefined, timeoutMs = WAIT_MS): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, EVERY_MS));
  }
}
