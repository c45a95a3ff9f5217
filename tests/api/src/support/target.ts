import { acquireSharedLock } from './shared-lock';

/**
 * The running product under test. With `SWITCHYARD_URL` set, the suite talks to that server (the
 * distributed runtime, started elsewhere, shared by every test file); otherwise each test file starts
 * its own embedded runtime in this process, with a fresh store in a temporary data directory. Against a shared server the
 * files take turns (see shared-lock.ts), since several of them change global config.
 */
export interface Target {
  /** Base URL without a trailing slash, e.g. `http://127.0.0.1:41234`. */
  readonly url: string;
  /** True when this file owns the server (embedded, fresh store): defaults and global counts are observable. */
  readonly isolated: boolean;
  stop(): Promise<void>;
}

export async function startTarget(): Promise<Target> {
  const external = process.env.SWITCHYARD_URL;
  if (external !== undefined && external !== '') {
    const url = external.replace(/\/+$/, '');
    assertLoopback(url);
    const release = await acquireSharedLock(url);
    return { url, isolated: false, stop: release };
  }
  // Loaded lazily so that a run against SWITCHYARD_URL never loads the embedded runtime.
  const { startEmbedded } = await import('@switchyard/embedded');
  const running = await startEmbedded({ port: 0, host: '127.0.0.1', logLevel: 'error' });
  const url = running.url.replace(/\/+$/, '').replace('://0.0.0.0', '://127.0.0.1');
  return { url, isolated: true, stop: () => running.stop() };
}

/** The suite only ever talks to this machine. */
function assertLoopback(url: string): void {
  const host = new URL(url).hostname;
  if (!['127.0.0.1', 'localhost', '[::1]', '::1'].includes(host)) {
    throw new Error(`SWITCHYARD_URL must point at a loopback address, got ${host}`);
  }
}
