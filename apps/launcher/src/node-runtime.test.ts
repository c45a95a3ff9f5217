import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { readEnvFile } from './env-file';

const root = resolve(__dirname, '../../..');
const script = join(root, 'deploy', 'node-runtime.sh');
const settings = readEnvFile(join(root, 'deploy', 'node-runtime.env'));

/** What a node started through deploy/node-runtime.sh sees: its NODE_OPTIONS, exec flags, a MALLOC_* value and its heap limit. */
function started(env: Record<string, string>, before: string[] = []): { nodeOptions: string; execArgv: string[]; mmapThreshold: string; heapLimitMb: number } {
  const probe = "const v8=require('v8');console.log(JSON.stringify({nodeOptions:process.env.NODE_OPTIONS,execArgv:process.execArgv.filter((a)=>a.startsWith('--')),mmapThreshold:process.env.MALLOC_MMAP_THRESHOLD_,heapLimitMb:v8.getHeapStatistics().heap_size_limit/1048576}))";
  return JSON.parse(execFileSync('sh', [script, ...before, '-e', probe], { env: { PATH: process.env.PATH ?? '', NODE: process.execPath, ...env }, encoding: 'utf8' })) as ReturnType<typeof started>;
}

test('when a process starts through node-runtime.sh, then it has the settings of node-runtime.env', () => {
  const seen = started({});
  assert.equal(seen.nodeOptions, settings.NODE_OPTIONS);
  assert.deepEqual(seen.execArgv, (settings.NODE_FLAGS ?? '').split(' ').filter(Boolean));
  assert.equal(seen.mmapThreshold, settings.MALLOC_MMAP_THRESHOLD_);
  const oldSpace = Number(/--max-old-space-size=(\d+)/.exec(settings.NODE_OPTIONS ?? '')?.[1]);
  assert.ok(seen.heapLimitMb >= oldSpace && seen.heapLimitMb < oldSpace + 64, `heap limit ${seen.heapLimitMb} MB for an old space of ${oldSpace} MB`);
});

test('when the environment has its own NODE_OPTIONS and MALLOC_* values, then they win', () => {
  const seen = started({ NODE_OPTIONS: '--max-old-space-size=300', MALLOC_MMAP_THRESHOLD_: '65536' });
  assert.equal(seen.nodeOptions, `${settings.NODE_OPTIONS} --max-old-space-size=300`);
  assert.equal(seen.mmapThreshold, '65536');
  assert.ok(seen.heapLimitMb >= 300, `heap limit ${seen.heapLimitMb} MB`);
});

test('when the embedded runtime starts through node-runtime.sh --embedded, then EMBEDDED_NODE_OPTIONS come after NODE_OPTIONS and before the caller\'s', () => {
  assert.ok(settings.EMBEDDED_NODE_OPTIONS, 'node-runtime.env has EMBEDDED_NODE_OPTIONS');
  assert.equal(started({}, ['--embedded']).nodeOptions, `${settings.NODE_OPTIONS} ${settings.EMBEDDED_NODE_OPTIONS}`);
  assert.equal(started({ NODE_OPTIONS: '--max-semi-space-size=2' }, ['--embedded']).nodeOptions, `${settings.NODE_OPTIONS} ${settings.EMBEDDED_NODE_OPTIONS} --max-semi-space-size=2`);
  assert.equal(started({}).nodeOptions, settings.NODE_OPTIONS, 'not for other processes');
});

test('when the image, npm start and the services start node, then they go through node-runtime.sh', () => {
  assert.match(readFileSync(join(root, 'Dockerfile'), 'utf8'), /CMD .*exec sh deploy\/node-runtime\.sh /);
  assert.match(readFileSync(join(root, 'package.json'), 'utf8'), /"start": "[^"]*sh deploy\/node-runtime\.sh --embedded apps\/embedded\/dist\/main\.js"/);
  for (const service of ['gateway', 'users-bots', 'posts', 'incoming-hooks', 'outgoing-dispatch', 'realtime']) {
    assert.match(readFileSync(join(root, 'services', service, 'package.json'), 'utf8'), /"start": "sh \.\.\/\.\.\/deploy\/node-runtime\.sh /, service);
  }
});
