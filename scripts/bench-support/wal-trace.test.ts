import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readWalTrace } from './wal-trace';

const dir = mkdtempSync(join(tmpdir(), 'wal-trace-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A path as `strace -xx` prints it (every byte escaped). */
const hex = (text: string): string => [...Buffer.from(text)].map((b) => `\\x${b.toString(16).padStart(2, '0')}`).join('');
const WAL = hex('/data/switchyard.db-wal');
const DB = hex('/data/switchyard.db');
const frameHeader = (page: number): string => hex(String.fromCharCode(0, 0, 0, page)) + hex('\0\0\0\0');

describe('readWalTrace', () => {
  it('when a trace holds frame writes, a checkpoint and group-commit syncs, then it counts frames by owner, the checkpoint and the syncs', () => {
    const lines = [
      `11 07:00:00.000100 pwrite64(19<${WAL}>, "${frameHeader(5)}"..., 24, 4096) = 24 <0.000010>`,
      `11 07:00:00.000200 pwrite64(19<${WAL}>, "${hex('\r\0\0\0\0\0\0\0')}"..., 4096, 4120) = 4096 <0.000010>`,
      `11 07:00:00.000300 pwrite64(19<${WAL}>, "${frameHeader(7)}"..., 24, 8216) = 24 <0.000010>`,
      `11 07:00:00.000400 pwrite64(19<${WAL}>, "${frameHeader(5)}"..., 24, 12312) = 24 <0.000010>`,
      `12 07:00:00.001000 fdatasync(19<${WAL}>) = 0 <0.000500>`,
      `11 07:00:01.000000 fsync(19<${WAL}>) = 0 <0.001000>`,
      `11 07:00:01.002000 pwrite64(18<${DB}>, "${hex('\r\0\0\0\0\0\0\0')}"..., 4096, 16384) = 4096 <0.000010>`,
      `11 07:00:01.010000 fsync(18<${DB}>) = 0 <0.002000>`,
      `11 07:00:01.020000 fsync(19<${WAL}>) = 0 <0.001000>`,
      'not a system call line',
    ];
    const file = join(dir, 'trace.log');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const trace = readWalTrace(file, new Map([[5, 'p_posts'], [6, 'od_deliveries']]));
    assert.equal(trace.frames, 3, 'frame headers only, not the pages after them');
    assert.deepEqual([...trace.framesByTree].sort(), [['other', 1], ['p_posts', 2]]);
    assert.equal(trace.walSyncs, 1);
    assert.equal(trace.checkpointMs.length, 1);
    assert.ok(Math.abs((trace.checkpointMs[0] ?? 0) - 12) < 1e-6, `from the WAL sync to the end of the database's fsync: ${trace.checkpointMs[0]}`);
  });
});
