import { mock, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ImageThreadPriority } from './image-thread-priority';

/** A directory shaped as /proc/self/task: one folder per thread id with its name in `comm`. */
function tasks(threads: Record<string, string>): { dir: string; add(tid: string, comm: string): void; remove(tid: string): void; done(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'task-'));
  const add = (tid: string, comm: string): void => {
    mkdirSync(join(dir, tid));
    writeFileSync(join(dir, tid, 'comm'), `${comm}\n`);
  };
  for (const [tid, comm] of Object.entries(threads)) add(tid, comm);
  return { dir, add, remove: (tid) => rmSync(join(dir, tid), { recursive: true }), done: () => rmSync(dir, { recursive: true, force: true }) };
}

test('when libvips threads appear, then each of them (and nothing else) is lowered to the nice value, once', () => {
  const t = tasks({ '100': 'node', '101': 'node', '120': 'libvips worker' });
  const calls: [number, number][] = [];
  const priority = new ImageThreadPriority(10, t.dir, (tid, nice) => calls.push([tid, nice]));
  priority.lowerNewThreads();
  assert.deepEqual(calls, [[120, 10]]);
  priority.lowerNewThreads();
  assert.deepEqual(calls, [[120, 10]], 'a thread already lowered is not touched again');
  t.add('121', 'libvips worker');
  t.add('122', 'node');
  priority.lowerNewThreads();
  assert.deepEqual(calls, [[120, 10], [121, 10]]);
  t.done();
});

test('when a thread ends and its id comes back as a libvips thread, then the new thread is lowered too', () => {
  const t = tasks({ '100': 'node', '130': 'node' });
  const calls: number[] = [];
  const priority = new ImageThreadPriority(5, t.dir, (tid) => calls.push(tid));
  priority.lowerNewThreads();
  t.remove('130');
  priority.lowerNewThreads();
  t.add('130', 'libvips worker');
  priority.lowerNewThreads();
  assert.deepEqual(calls, [130]);
  t.done();
});

test('when nice is 0, or there is no thread list (not Linux), or a thread refuses, then nothing fails', () => {
  const t = tasks({ '140': 'libvips worker' });
  const calls: number[] = [];
  new ImageThreadPriority(0, t.dir, (tid) => calls.push(tid)).lowerNewThreads();
  assert.equal(calls.length, 0);
  new ImageThreadPriority(10, join(t.dir, 'missing'), (tid) => calls.push(tid)).lowerNewThreads();
  assert.equal(calls.length, 0);
  assert.doesNotThrow(() => new ImageThreadPriority(10, t.dir, () => { throw new Error('ESRCH'); }).lowerNewThreads());
  t.done();
});

test('when threads appear while image work runs, then they are lowered during the work, and no more looking once every work ended', () => {
  mock.timers.enable({ apis: ['setInterval'] });
  const t = tasks({ '100': 'node' });
  const calls: number[] = [];
  const priority = new ImageThreadPriority(10, t.dir, (tid) => calls.push(tid));
  const first = priority.watch(2);
  const second = priority.watch(2);
  t.add('150', 'libvips worker');
  mock.timers.tick(2);
  assert.deepEqual(calls, [150], 'lowered while the work runs, not only after it');
  first();
  t.add('151', 'libvips worker');
  mock.timers.tick(2);
  assert.deepEqual(calls, [150, 151], 'still looking while one work runs');
  second();
  second();
  t.add('152', 'libvips worker');
  mock.timers.tick(10);
  assert.deepEqual(calls, [150, 151], 'nothing read after the last work ended');
  mock.timers.reset();
  t.done();
});

test('when a thread is seen before libvips names it, then it is looked at once more and lowered then', () => {
  const t = tasks({ '100': 'node' });
  const calls: number[] = [];
  const priority = new ImageThreadPriority(10, t.dir, (tid) => calls.push(tid));
  t.add('160', 'node');
  priority.lowerNewThreads();
  writeFileSync(join(t.dir, '160', 'comm'), 'libvips worker\n');
  priority.lowerNewThreads();
  assert.deepEqual(calls, [160]);
  t.done();
});
