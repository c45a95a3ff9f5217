import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';

export interface CtlResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

const repoRoot = resolve(__dirname, '..', '..', '..', '..');
/**
 * From source (`node --conditions=source --import tsx apps/switchyardctl/src/main.ts`), or, when the test run says the
 * build is fresh (TEST_FROM_DIST=1: npm test, right after tsc -b), as installed (`node apps/switchyardctl/dist/main.js`):
 * tsx costs ~0.5 s of CPU per start, ~60 % of a command's.
 */
const entry = process.env.TEST_FROM_DIST === '1'
  ? [join(repoRoot, 'apps', 'switchyardctl', 'dist', 'main.js')]
  : ['--conditions=source', '--import', 'tsx', join(__dirname, '..', 'main.ts')];

/**
 * Runs the CLI as a child process (its entry point above).
 * Asynchronous on purpose: the fake server lives in the test process and must keep answering.
 * The parent's SWITCHYARD_* variables are dropped; `env` adds the ones a test wants.
 */
export function runCtl(args: readonly string[], env: Record<string, string> = {}): Promise<CtlResult> {
  const baseEnv: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('SWITCHYARD_')) baseEnv[key] = value;
  delete baseEnv.NODE_TEST_CONTEXT;
  return new Promise((done, fail) => {
    execFile(
      process.execPath,
      [...entry, ...args],
      { cwd: repoRoot, env: { ...baseEnv, ...env }, timeout: 30_000 },
      (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number') {
          fail(error);
          return;
        }
        done({ code: error ? Number(error.code) : 0, stdout, stderr });
      },
    );
  });
}
