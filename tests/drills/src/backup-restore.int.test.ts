import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeleteObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { MongoClient } from 'mongodb';
import { bootstrapAdmin, call, cleanupRun, freePort, isolation, realServers, ROOT, ServiceProcess } from './support/processes';

/**
 * Restore drill (issue 31, day 30) on the local servers: the distributed runtime (five services) on the
 * shared Kafka, MongoDB-wire and Redis and posts' files in S3Proxy, a workload (users, a team and channel,
 * API posts, incoming-hook posts, an outgoing hook, uploaded files), then `switchyardctl cluster-backup`
 * with the services stopped, everything wiped (the four databases dropped, the bucket emptied),
 * `switchyardctl cluster-restore` and the services started again: every count the product shows (users,
 * posts, hooks, files and their bytes) and every collection's document count are the same as before.
 * Prints `DRILL backup-restore: {...}`.
 */
const servers = realServers();
const s3Endpoint = process.env.S3_TEST_ENDPOINT;
const SERVICES = ['users-bots', 'posts', 'incoming-hooks', 'outgoing-dispatch', 'gateway'];
const DATABASES: Record<string, string> = { 'users-bots': 'users', posts: 'posts', 'incoming-hooks': 'incoming', 'outgoing-dispatch': 'outgoing' };
const skip = servers.skip !== false ? servers.skip : !s3Endpoint ? 'S3_TEST_ENDPOINT not set: run deploy/local/up.sh (S3Proxy)' : false;

interface Counts {
  users: number;
  channelPosts: number;
  incomingHooks: number;
  outgoingHooks: number;
  files: number;
  fileBytesEqual: number;
  documents: Record<string, number>;
}

function ctl(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [join(ROOT, 'apps/switchyardctl/dist/main.js'), ...args], { cwd: ROOT, env: { PATH: process.env.PATH ?? '', ...env }, timeout: 120_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number((error as { code?: unknown }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('drill: back up the distributed runtime, wipe it, restore it', { skip, timeout: 300_000 }, () => {
  const run = isolation();
  const bucket = `${(run.RUN_ID ?? 'drill').toLowerCase()}-files`;
  const mongoUrl = servers.skip === false ? (servers.env.MONGO_URL ?? '') : '';
  const dbNames = Object.values(DATABASES).map((d) => `${run.MONGO_DB_PREFIX}${d}`);
  const urls = dbNames.map((db) => `${mongoUrl.replace(/\/+$/, '')}/${db}`);
  const backupDir = mkdtempSync(join(tmpdir(), 'switchyard-backup-'));
  const s3 = new S3Client({ endpoint: `http://${s3Endpoint}`, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: process.env.S3_TEST_ACCESS_KEY ?? '', secretAccessKey: process.env.S3_TEST_SECRET_KEY ?? '' } });
  const ctlEnv = { BACKUP_MONGO_URLS: urls.join(' '), BACKUP_S3_ACCESS_KEY_ID: process.env.S3_TEST_ACCESS_KEY ?? '', BACKUP_S3_SECRET_ACCESS_KEY: process.env.S3_TEST_SECRET_KEY ?? '' };
  const s3Flags = ['--s3-bucket', bucket, '--s3-endpoint', s3Endpoint ?? '', '--no-s3-ssl'];
  const processes = new Map<string, ServiceProcess>();
  const env: Record<string, string> = {};
  const uploaded = new Map<string, Buffer>();
  let channelId = '';
  let teamId = '';

  /** The five services from dist, each on its own database (prefix + name, as the launcher names them). */
  const start = async (): Promise<string> => {
    const ports = new Map<string, number>();
    for (const name of SERVICES) ports.set(name, await freePort());
    const serviceUrls = SERVICES.filter((n) => n !== 'gateway').map((n) => `${n}=http://127.0.0.1:${ports.get(n)}`).join(',');
    for (const name of SERVICES) {
      const db = DATABASES[name];
      processes.set(name, new ServiceProcess(name, ports.get(name) ?? 0, { ...env, SERVICE_URLS: serviceUrls, ...(db ? { MONGO_DB: `${run.MONGO_DB_PREFIX}${db}` } : {}) }));
    }
    for (const name of SERVICES) processes.get(name)?.start();
    for (const name of SERVICES) await processes.get(name)?.waitReady();
    return processes.get('gateway')?.url ?? '';
  };
  const stop = async (): Promise<void> => {
    for (const name of [...SERVICES].reverse()) await processes.get(name)?.stop();
    processes.clear();
  };
  const documents = async (): Promise<Record<string, number>> => {
    const client = await MongoClient.connect(mongoUrl);
    try {
      const out: Record<string, number> = {};
      for (const db of dbNames) for (const c of await client.db(db).listCollections({}, { nameOnly: true }).toArray()) out[`${db}.${c.name}`] = await client.db(db).collection(c.name).countDocuments();
      return out;
    } finally {
      await client.close();
    }
  };
  const counts = async (base: string, token: string): Promise<Counts> => {
    const users = await call(base, 'GET', '/api/v4/users?per_page=200', { token });
    const posts = await call(base, 'GET', `/api/v4/channels/${channelId}/posts?per_page=200`, { token });
    const incoming = await call(base, 'GET', `/api/v4/hooks/incoming?team_id=${teamId}&per_page=200`, { token });
    const outgoing = await call(base, 'GET', `/api/v4/hooks/outgoing?team_id=${teamId}&per_page=200`, { token });
    let fileBytesEqual = 0;
    for (const [id, bytes] of uploaded) {
      const res = await fetch(`${base}/api/v4/files/${id}`, { headers: { authorization: `Bearer ${token}` } });
      if (res.status === 200 && Buffer.from(await res.arrayBuffer()).equals(bytes)) fileBytesEqual += 1;
    }
    const asList = (j: { body: unknown }) => (Array.isArray(j.body) ? j.body.length : -1);
    return {
      users: asList(users),
      channelPosts: ((posts.body as { order?: string[] }).order ?? []).length,
      incomingHooks: asList(incoming),
      outgoingHooks: asList(outgoing),
      files: uploaded.size,
      fileBytesEqual,
      documents: await documents(),
    };
  };

  before(async () => {
    if (skip !== false) return;
    Object.assign(env, {
      ...(servers.skip === false ? servers.env : {}),
      KAFKA_NAMESPACE: run.KAFKA_NAMESPACE ?? '',
      REDIS_KEY_PREFIX: run.REDIS_KEY_PREFIX ?? '',
      KAFKA_TOPICS_FILE: join(ROOT, 'deploy/local/topics.txt'),
      INTERNAL_SECRET: randomBytes(24).toString('base64url'),
      LOG_LEVEL: 'warn',
      MM_FILESETTINGS_DRIVERNAME: 'amazons3',
      MM_FILESETTINGS_AMAZONS3BUCKET: bucket,
      MM_FILESETTINGS_AMAZONS3ENDPOINT: s3Endpoint ?? '',
      MM_FILESETTINGS_AMAZONS3SSL: 'false',
      MM_FILESETTINGS_AMAZONS3ACCESSKEYID: process.env.S3_TEST_ACCESS_KEY ?? '',
      MM_FILESETTINGS_AMAZONS3SECRETACCESSKEY: process.env.S3_TEST_SECRET_KEY ?? '',
      FILES_CREATE_BUCKET: 'true',
    });
  });

  after(async () => {
    const cleanupStarted = Date.now();
    await stop();
    const client = mongoUrl ? await MongoClient.connect(mongoUrl).catch(() => undefined) : undefined;
    for (const db of dbNames) await client?.db(db).dropDatabase().catch(() => undefined);
    await client?.close();
    await emptyBucket().catch(() => undefined);
    s3.destroy();
    if (run.RUN_ID) await cleanupRun(run.RUN_ID);
    rmSync(backupDir, { recursive: true, force: true });
    console.log(`DRILL backup-restore cleanup: ${Date.now() - cleanupStarted} ms`);
  });

  /** Deletes every object; the directory markers S3Proxy's filesystem backend lists ("x/") hold nothing and take 10 s each to delete. */
  async function emptyBucket(): Promise<number> {
    const listed = await s3.send(new ListObjectsV2Command({ Bucket: bucket }));
    const keys = (listed.Contents ?? []).flatMap((item) => (item.Key && !item.Key.endsWith('/') ? [item.Key] : []));
    for (const key of keys) await s3.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
    return keys.length;
  }

  it('when the state is backed up, wiped and restored, then users, posts, hooks, files and every collection count as before', async () => {
    const t0 = Date.now();
    const phases: Record<string, number> = {};
    const phase = (name: string) => (phases[name] = Date.now() - t0 - Object.values(phases).reduce((a, b) => a + b, 0));
    const base = await start();
    phase('start_ms');
    const token = await bootstrapAdmin(base);
    const team = await call(base, 'POST', '/api/v4/teams', { token, body: { name: `backup${randomBytes(3).toString('hex')}`, display_name: 'Backup drill', type: 'O' } });
    assert.equal(team.status, 201, JSON.stringify(team.body));
    teamId = String(team.body.id);
    const channel = await call(base, 'POST', '/api/v4/channels', { token, body: { team_id: teamId, name: 'restore-me', display_name: 'Restore me', type: 'O' } });
    assert.equal(channel.status, 201, JSON.stringify(channel.body));
    channelId = String(channel.body.id);
    for (let i = 0; i < 3; i += 1) {
      const user = await call(base, 'POST', '/api/v4/users', { token, body: { username: `member${i}${randomBytes(2).toString('hex')}`, email: `m${i}${randomBytes(3).toString('hex')}@example.com`, password: 'Member-pass-123' } });
      assert.equal(user.status, 201, JSON.stringify(user.body));
    }
    const fileIds: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const bytes = randomBytes(2048 + i * 1000);
      const res = await fetch(`${base}/api/v4/files?channel_id=${channelId}&filename=report${i}.bin`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' }, body: bytes });
      const body = (await res.json()) as { file_infos?: { id: string }[] };
      assert.equal(res.status, 201, `${JSON.stringify(body)}; errors logged: ${JSON.stringify([...processes].map(([n, p]) => [n, p.lines.filter((l) => l.level === 'error').slice(-3)]))}`);
      const id = body.file_infos?.[0]?.id ?? '';
      uploaded.set(id, bytes);
      fileIds.push(id);
    }
    for (let i = 0; i < 12; i += 1) {
      const post = await call(base, 'POST', '/api/v4/posts', { token, body: { channel_id: channelId, message: `post ${i}`, ...(i === 0 ? { file_ids: fileIds } : {}) } });
      assert.equal(post.status, 201, JSON.stringify(post.body));
    }
    const hook = await call(base, 'POST', '/api/v4/hooks/incoming', { token, body: { channel_id: channelId, display_name: 'CI' } });
    assert.equal(hook.status, 201, JSON.stringify(hook.body));
    for (let i = 0; i < 4; i += 1) {
      const sent = await call(base, 'POST', `/hooks/${String(hook.body.id)}`, { body: { text: `build ${i} passed` } });
      assert.equal(sent.status, 200, JSON.stringify(sent.body));
    }
    const outgoing = await call(base, 'POST', '/api/v4/hooks/outgoing', { token, body: { team_id: teamId, channel_id: channelId, display_name: 'Never fires', trigger_words: ['neverfires'], callback_urls: ['https://example.invalid/x'] } });
    assert.equal(outgoing.status, 201, JSON.stringify(outgoing.body));
    const before = await counts(base, token);
    assert.equal(before.fileBytesEqual, 3);
    assert.equal(before.channelPosts >= 16, true, `posts in the channel: ${before.channelPosts}`);

    phase('workload_ms');
    // Backup with the services stopped (no write between the databases' dumps).
    await stop();
    phase('stop_ms');
    const backup = await ctl(['--json', 'cluster-backup', backupDir, ...s3Flags], ctlEnv);
    assert.equal(backup.code, 0, backup.stderr);
    const manifest = JSON.parse(backup.stdout) as { databases: Record<string, Record<string, number>>; files: { objects: number; bytes: number } };
    assert.ok(manifest.files.objects >= 3, JSON.stringify(manifest.files));
    phase('backup_ms');

    // Disaster: every database dropped, the bucket emptied.
    const client = await MongoClient.connect(mongoUrl);
    for (const db of dbNames) await client.db(db).dropDatabase();
    await client.close();
    const wipedObjects = await emptyBucket();
    assert.deepEqual(Object.values(await documents()).filter((n) => n > 0), []);

    const restore = await ctl(['--json', 'cluster-restore', backupDir, ...s3Flags], ctlEnv);
    assert.equal(restore.code, 0, restore.stderr);
    const restored = JSON.parse(restore.stdout) as { mismatches: string[]; files: { objects: number } };
    assert.deepEqual(restored.mismatches, []);
    phase('wipe_and_restore_ms');

    const base2 = await start();
    phase('restart_ms');
    const login = await call(base2, 'POST', '/api/v4/users/login', { body: { login_id: 'drilladmin', password: 'Drill-admin-pass1' } });
    assert.equal(login.status, 200, 'the admin signs in with the restored password');
    const afterRestore = await counts(base2, login.headers.get('token') ?? '');
    // Signing in again adds a session: compare every collection but the sessions.
    const withoutSessions = (d: Record<string, number>) => Object.fromEntries(Object.entries(d).filter(([k]) => !k.endsWith('.sessions')));
    assert.deepEqual({ ...afterRestore, documents: withoutSessions(afterRestore.documents) }, { ...before, documents: withoutSessions(before.documents) });
    const summary = { users: before.users, channel_posts: before.channelPosts, incoming_hooks: before.incomingHooks, outgoing_hooks: before.outgoingHooks, files: before.files, file_bytes_equal_after: afterRestore.fileBytesEqual, collections: Object.keys(before.documents).length, documents: Object.values(before.documents).reduce((a, b) => a + b, 0), objects_backed_up: manifest.files.objects, objects_wiped: wipedObjects, objects_restored: restored.files.objects, ...phases, load_average: Number(loadavg()[0]?.toFixed(1)) };
    console.log(`DRILL backup-restore: ${JSON.stringify(summary)}`);
  });
});
