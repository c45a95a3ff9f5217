import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { readEnvFile } from './env-file';
import { SERVICE_TABLE, serviceUrls } from './service-table';

/**
 * `npm run start:distributed`: one process per service against the Kafka, MongoDB and Redis URLs in the
 * environment or in deploy/local/.env. The gateway listens on PORT (default 8065).
 */
const root = resolve(__dirname, '../../..');
const fileEnv = readEnvFile(join(root, 'deploy/local/.env'));
const env: NodeJS.ProcessEnv = { ...fileEnv, ...process.env };
for (const key of ['KAFKA_BROKERS', 'MONGO_URL', 'REDIS_URL']) {
  if (!env[key]) {
    process.stderr.write(`start:distributed needs ${key}: run 'bash deploy/local/up.sh' (writes deploy/local/.env) or set it.\n`);
    process.exit(1);
  }
}
env.INTERNAL_SECRET ??= randomBytes(32).toString('base64url');

const specs = SERVICE_TABLE.filter((s) => existsSync(join(root, 'services', s.name, 'dist', 'main.js')));
const urls = serviceUrls(specs);
const children: ChildProcess[] = [];

for (const spec of specs) {
  const dist = join(root, 'services', spec.name, 'dist');
  const instrumentation = join(dist, 'instrumentation.js');
  const args = [...(existsSync(instrumentation) ? ['--require', instrumentation] : []), join(dist, 'main.js')];
  const port = spec.name === 'gateway' ? (env.PORT ?? String(spec.port)) : String(spec.port);
  const child = spawn(process.execPath, args, {
    env: {
      ...env,
      PORT: port,
      SERVICE_URLS: urls,
      ...(spec.dbName ? { MONGO_DB: spec.dbName } : {}),
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  child.on('exit', (code, signal) => {
    process.stderr.write(`${spec.name} exited (${signal ?? code})\n`);
    if (!stopping) shutdown(1);
  });
  children.push(child);
}
process.stdout.write(`Switchyard (distributed): ${specs.map((s) => s.name).join(', ')}; gateway on port ${env.PORT ?? 8065}\n`);

let stopping = false;
function shutdown(code: number): void {
  if (stopping) return;
  stopping = true;
  for (const child of children) child.kill('SIGTERM');
  setTimeout(() => process.exit(code), 10_000).unref();
  let alive = children.length;
  for (const child of children) child.once('exit', () => (alive -= 1) === 0 && process.exit(code));
}
process.once('SIGTERM', () => shutdown(0));
process.once('SIGINT', () => shutdown(0));
