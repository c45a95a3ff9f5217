// Imported into each test file's process by scripts/run-node-tests.sh (`--import`: node's test runner passes its
// flags on to the files' processes). When the process exits it appends one line to $TEST_FILE_USAGE_OUT:
//   wall seconds <TAB> CPU seconds of this process <TAB> CPU seconds of the processes it started and waited for <TAB> file
// (wall from the process's start, so imports and startup count; CPU from /proc/self/stat utime+stime and
// cutime+cstime), so a CI log says which files take long and which use the cores.
// Written by the file's own process because a reporter in the runner loses its output under --test-force-exit
// (node 20 exits before a reporter's destination file is written). Plain JavaScript: loaded before tsx is in place.
import { appendFileSync, readFileSync } from 'node:fs';

const out = process.env.TEST_FILE_USAGE_OUT;
const file = process.argv[1] ?? '';
if (out && /\.test\.[cm]?[jt]s$/.test(file)) {
  process.on('exit', () => {
    let cpu = ['?', '?'];
    try {
      const stat = readFileSync('/proc/self/stat', 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ').map(Number);
      const ticks = 100; // USER_HZ: 100 on every Linux node runs on
      cpu = [((f[11] ?? 0) + (f[12] ?? 0)) / ticks, ((f[13] ?? 0) + (f[14] ?? 0)) / ticks].map((s) => s.toFixed(1));
    } catch {
      // not Linux: wall only
    }
    const cwd = `${process.cwd()}/`;
    appendFileSync(out, `${process.uptime().toFixed(1)}\t${cpu[0]}\t${cpu[1]}\t${file.startsWith(cwd) ? file.slice(cwd.length) : file}\n`);
  });
}
