import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const REPO = resolve(import.meta.dirname, '..', '..', '..', '..');

export interface RunningServer {
  readonly url: string;
  stop(): Promise<void>;
}

/**
 * The embedded runtime as `npm start` runs it (compiled dist, built by `tsc -b`), on a free loopback port,
 * serving the built console. With SWITCHYARD_URL set, that server is used instead (for example the distributed runtime).
 */
export async function startServer(): Promise<RunningServer> {
  const external = process.env.SWITCHYARD_URL;
  if (external) return { url: external.replace(/\/$/, ''), stop: async () => undefined };
  const main = resolve(REPO, 'apps/embedded/dist/main.js');
  if (!existsSync(main)) throw new Error(`${main} is missing: run \`npm run build\` first`);
  if (!existsSync(resolve(REPO, 'apps/console/dist/index.html'))) throw new Error('apps/console/dist is missing: run `npm run build` first');
  // A data directory of its own: the first user signed up is the system admin, and nothing is left behind.
  const dataDir = mkdtempSync(join(tmpdir(), 'switchyard-console-e2e-'));
  // Through deploy/node-runtime.sh --embedded, as `npm start`: the same heap and malloc settings (it execs node).
  const child: ChildProcess = spawn('sh', [resolve(REPO, 'deploy/node-runtime.sh'), '--embedded', main], {
    cwd: REPO,
    env: { ...process.env, NODE: process.execPath, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    if (process.env.E2E_LOG_LEVEL) process.stderr.write(chunk);
  });
  const url = await new Promise<string>((resolveUrl, reject) => {
    let out = '';
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (http:\/\/[^\s;,]+)/.exec(out);
      if (match?.[1]) {
        child.stdout?.off('data', onData);
        child.stdout?.resume();
        resolveUrl(match[1]);
      }
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`the embedded runtime exited (${code}) before listening:\n${stderr}`)));
  });
  return {
    url,
    stop: () =>
      new Promise<void>((done) => {
        const finish = () => {
          rmSync(dataDir, { recursive: true, force: true });
          done();
        };
        if (child.exitCode !== null) {
          finish();
          return;
        }
        child.once('exit', finish);
        child.kill('SIGTERM');
      }),
  };
}
