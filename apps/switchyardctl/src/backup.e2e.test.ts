import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCtl } from './test-support/run-ctl';

/**
 * backup and restore against the embedded runtime on its own data directories. Never skipped: if
 * `@switchyard/embedded` cannot be loaded, this file fails (a broken dependency must fail CI).
 */
interface EmbeddedModule {
  startEmbedded(options: { port: number; host?: string; logLevel?: string; dataDir?: string }): Promise<{ url: string; stop(): Promise<void> }>;
}

// Loaded at run time (the CLI package does not depend on the runtime it is tested against).
const embedded = createRequire(__filename)('@switchyard/embedded') as EmbeddedModule;
const PASSWORD = 'Adm1n-backup-Passw0rd';

describe('switchyardctl backup and restore', { timeout: 120_000 }, () => {
  const root = mkdtempSync(join(tmpdir(), 'ctl-backup-'));
  const source = join(root, 'source');
  const target = join(root, 'target');
  const file = join(root, 'backup.db');
  let server: { url: string; stop(): Promise<void> } | undefined;
  const report = randomBytes(300_000);
  let fileId = '';

  const start = async (dataDir: string): Promise<{ url: string; stop(): Promise<void> }> => {
    const started = await embedded.startEmbedded({ port: 0, host: '127.0.0.1', logLevel: 'error', dataDir });
    return { url: started.url.replace('://0.0.0.0:', '://127.0.0.1:').replace(/\/+$/, ''), stop: () => started.stop() };
  };
  const api = async (url: string, method: string, path: string, body?: unknown, token?: string) => {
    const res = await fetch(`${url}/api/v4${path}`, {
      method,
      headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : undefined) as Record<string, unknown> };
  };

  before(async () => {
    server = await start(source);
    assert.equal((await api(server.url, 'POST', '/users', { username: 'admin', email: 'admin@example.com', password: PASSWORD })).status, 201);
    const login = await api(server.url, 'POST', '/users/login', { login_id: 'admin', password: PASSWORD });
    const plain = await api(server.url, 'POST', '/users', { username: 'plain', email: 'plain@example.com', password: PASSWORD }, login.headers.get('token') ?? '');
    assert.equal(plain.status, 201, JSON.stringify(plain.body));
    // An uploaded file: the backup carries the files directory, restore puts it back.
    const token = login.headers.get('token') ?? '';
    const team = await api(server.url, 'POST', '/teams', { name: 'backupteam', display_name: 'Backup', type: 'O' }, token);
    const channel = await api(server.url, 'POST', '/channels', { team_id: team.body.id, name: 'files', display_name: 'Files', type: 'O' }, token);
    const upload = await fetch(`${server.url}/api/v4/files?channel_id=${String(channel.body.id)}&filename=report.bin`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/octet-stream' },
      body: new Uint8Array(report),
    });
    assert.equal(upload.status, 201);
    fileId = ((await upload.json()) as { file_infos: { id: string }[] }).file_infos[0]?.id ?? '';
  });
  after(async () => {
    await server?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  it('when an admin backs up a running server, then the file is a store; a non-admin is refused; restore needs the server stopped', async () => {
    const running = server!;
    const backup = await runCtl(['--url', running.url, '--login', 'admin', 'backup', file], { SWITCHYARD_PASSWORD: PASSWORD });
    assert.equal(backup.code, 0, backup.stderr);
    assert.match(backup.stdout, /backup written to/);
    assert.ok(statSync(file).size > 0);
    assert.equal(existsSync(`${file}.partial`), false);

    const refused = await runCtl(['--url', running.url, '--login', 'plain', 'backup', join(root, 'nope.db')], { SWITCHYARD_PASSWORD: PASSWORD });
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /api\.context\.permissions\.app_error/);
    assert.equal(existsSync(join(root, 'nope.db')), false);
    // Behind the gateway's path decision: an encoded letter is the same route, an empty segment its 301
    // (fetch resolves dot segments itself; edge-routes.test.ts in the gateway sends those byte for byte).
    for (const path of ['/api/v4/system/backup', '/api/v4/system/backu%70']) {
      const anonymous = await fetch(`${running.url}${path}`);
      assert.equal(anonymous.status, 401, path);
      assert.equal(((await anonymous.json()) as { id: string }).id, 'api.context.session_expired.app_error', path);
    }
    const dotted = await fetch(`${running.url}/api/v4/system//backup`, { redirect: 'manual' });
    assert.equal(dotted.status, 301);
    assert.equal(dotted.headers.get('location'), '/api/v4/system/backup');

    // A later user is not in the backup.
    const login = await api(running.url, 'POST', '/users/login', { login_id: 'admin', password: PASSWORD });
    assert.equal((await api(running.url, 'POST', '/users', { username: 'later', email: 'later@example.com', password: PASSWORD }, login.headers.get('token') ?? '')).status, 201);
    const busy = await runCtl(['restore', file, '--data-dir', source], {});
    assert.equal(busy.code, 1);
    assert.match(busy.stderr, /switchyardctl\.restore\.in_use/);

    const restored = await runCtl(['restore', file, '--data-dir', target], {});
    assert.equal(restored.code, 0, restored.stderr);
    await running.stop();
    server = await start(target);
    const again = await api(server.url, 'POST', '/users/login', { login_id: 'admin', password: PASSWORD });
    assert.equal(again.status, 200);
    const token = again.headers.get('token') ?? '';
    const plain = await api(server.url, 'GET', '/users/username/plain', undefined, token);
    assert.equal(plain.status, 200);
    assert.equal(plain.body.username, 'plain');
    const bytes = await fetch(`${server.url}/api/v4/files/${fileId}`, { headers: { Authorization: `Bearer ${token}` } });
    assert.equal(bytes.status, 200);
    assert.ok(Buffer.from(await bytes.arrayBuffer()).equals(report), 'the uploaded file came back with the restore');
    assert.deepEqual(readdirSync(target).filter((n) => n.startsWith('.restore-') || n.includes('.replaced-')), []);
    const later = await api(server.url, 'GET', '/users/username/later', undefined, token);
    assert.equal(later.status, 404);
    // The user is missing (not the route): the reference's id for a missing username.
    assert.equal(later.body.id, 'app.user.get_by_username.app_error');

    const corrupt = await runCtl(['restore', join(root, 'missing.db'), '--data-dir', join(root, 'other')], {});
    assert.equal(corrupt.code, 1);
    assert.match(corrupt.stderr, /not a readable Switchyard backup/);
  });
});
