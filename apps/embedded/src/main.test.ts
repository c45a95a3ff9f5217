import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DATABASE_FILE, openStore } from '@switchyard/sqlite-kit';

/** From source, or from the build when the test run says it is fresh (TEST_FROM_DIST=1: npm test, right after tsc -b; tsx costs ~2 s of CPU per start). */
const MAIN = process.env.TEST_FROM_DIST === '1'
  ? [join(__dirname, '..', 'dist', 'main.js')]
  : ['--conditions=source', '--import', 'tsx', join(__dirname, 'main.ts')];

/** Runs `npm start`'s entry point on a data directory; resolves with its exit code and output. */
function startOn(dataDir: string): Promise<{ code: number | null; stderr: string; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...MAIN, '--data-dir', dataDir], {
      env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'error', METRICS_PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      // A runtime that started on a bad directory would be a failure: stop it rather than hang.
      if (stdout.includes('listening on')) child.kill('SIGTERM');
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('exit', (code) => resolve({ code, stderr, stdout }));
  });
}

function assertOneLineFailure(result: { code: number | null; stderr: string; stdout: string }, pattern: RegExp): void {
  assert.equal(result.code, 1, `exit code (stdout: ${result.stdout})`);
  const lines = result.stderr.trim().split('\n');
  assert.equal(lines.length, 1, `one line on stderr, got:\n${result.stderr}`);
  assert.match(lines[0] ?? '', /^error: /);
  assert.match(lines[0] ?? '', pattern);
  assert.doesNotMatch(result.stderr, /\n\s+at /, 'no stack trace');
  assert.doesNotMatch(result.stdout, /listening on/, 'never serves');
}

const fresh = (): string => mkdtempSync(join(tmpdir(), 'embedded-main-'));

describe('npm start on a data directory it cannot use', { timeout: 300_000, concurrency: true }, () => {
  it('when the data directory is a file, then one line and exit code 1', async () => {
    const file = join(fresh(), 'not-a-dir');
    writeFileSync(file, 'x');
    assertOneLineFailure(await startOn(file), /is not a writable directory/);
  });

  it('when the data directory cannot be created, then one line and exit code 1', async () => {
    const file = join(fresh(), 'file');
    writeFileSync(file, 'x');
    assertOneLineFailure(await startOn(join(file, 'data')), /cannot create data directory/);
  });

  it('when the database file is corrupt, then one line and exit code 1, and the file is left alone', async () => {
    const dir = fresh();
    const garbage = 'not an sqlite database '.repeat(100);
    writeFileSync(join(dir, DATABASE_FILE), garbage);
    assertOneLineFailure(await startOn(dir), /is not a valid Switchyard database/);
  });

  it('when the store was written by a newer Switchyard, then one line and exit code 1', async () => {
    const dir = fresh();
    const store = openStore({ dir });
    store.db.prepare("INSERT INTO schema_versions (component, version, updated_at) VALUES ('users-bots', 999, 0)").run();
    await store.close();
    assertOneLineFailure(await startOn(dir), /newer Switchyard \(users-bots schema version 999/);
  });

  it('when another process holds the data directory, then the second start fails with one line naming it', async () => {
    const dir = fresh();
    const holder = openStore({ dir });
    try {
      assertOneLineFailure(await startOn(dir), new RegExp(`data directory .* is in use by another Switchyard process \\(pid ${process.pid}\\)`));
    } finally {
      await holder.close();
    }
  });
});
