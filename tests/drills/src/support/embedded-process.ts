import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, ROOT } from './processes';

export const EMBEDDED_MAIN = join(ROOT, 'apps', 'embedded', 'dist', 'main.js');
/** `npm start`'s launcher: node with the heap and malloc settings of deploy/node-runtime.env (it execs node: same pid). */
const NODE_RUNTIME = join(ROOT, 'deploy', 'node-runtime.sh');

/** Why an embedded drill cannot run (the compiled runtime is missing), or false. */
export function embeddedSkip(): string | false {
  return existsSync(EMBEDDED_MAIN) ? false : 'apps/embedded/dist/main.js missing: run npx tsc -b';
}

/** `npm start` as its own process (through deploy/node-runtime.sh, as `npm start`) on a loopback port and a given data directory. */
export class EmbeddedProcess {
  public readonly stdout: string[] = [];
  public readonly stderr: string[] = [];
  private child: ChildProcess | undefined;
  private exited: Promise<number | null> | undefined;

  private constructor(
    public readonly port: number,
    private readonly dataDir: string,
  ) {}

  public static async on(dataDir: string): Promise<EmbeddedProcess> {
    return new EmbeddedProcess(await freePort(), dataDir);
  }

  public get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  public start(): void {
    const child = spawn('sh', [NODE_RUNTIME, '--embedded', EMBEDDED_MAIN, '--data-dir', this.dataDir], {
      env: { PATH: process.env.PATH ?? '', NODE: process.execPath, PORT: String(this.port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', METRICS_PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => this.stdout.push(chunk));
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => this.stderr.push(chunk));
    this.exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
    this.child = child;
  }

  /** Resolves with the exit code once the process ended. */
  public async exit(): Promise<number | null> {
    return this.exited ?? null;
  }

  public async waitReady(timeoutMs = 60_000): Promise<void> {
    const until = Date.now() + timeoutMs;
    while (Date.now() < until) {
      if (this.child?.exitCode !== null && this.child?.exitCode !== undefined) {
        throw new Error(`embedded runtime exited with ${this.child.exitCode}: ${this.stderr.join('').slice(-2000)}`);
      }
      try {
        const res = await fetch(`${this.url}/api/v4/system/ping`);
        if (res.status === 200) return;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`embedded runtime not ready after ${timeoutMs} ms: ${this.stderr.join('').slice(-2000)}`);
  }

  /** SIGKILL: no shutdown at all. */
  public async kill(): Promise<void> {
    this.child?.kill('SIGKILL');
    await this.exited;
  }

  public async stop(): Promise<number | null> {
    if (!this.child || this.child.exitCode !== null || this.child.signalCode !== null) return this.child?.exitCode ?? null;
    this.child.kill('SIGTERM');
    return this.exited ?? null;
  }
}
