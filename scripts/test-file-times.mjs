// A node:test reporter that writes, when the run ends, one line per test file: the summed duration of its
// top-level tests in seconds, how many tests it ran, how many failed, and its path; slowest first. Used by
// scripts/run-node-tests.sh beside the usual TAP output, so a CI log says where the time went. Plain
// JavaScript: node loads reporters before `--import tsx` is in place.
//   node --test --test-reporter=tap --test-reporter-destination=stdout \
//     --test-reporter=./scripts/test-file-times.mjs --test-reporter-destination=times.tsv <files>

/** @param {AsyncIterable<{ type: string, data: { file?: string, nesting?: number, details?: { duration_ms?: number, type?: string } } }>} source */
export default async function* fileTimes(source) {
  /** @type {Map<string, { ms: number, tests: number, failed: number }>} */
  const files = new Map();
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const { file = '?', nesting, details } = event.data;
    const entry = files.get(file) ?? { ms: 0, tests: 0, failed: 0 };
    files.set(file, entry);
    if (details?.type !== 'suite') {
      entry.tests += 1;
      if (event.type === 'test:fail') entry.failed += 1;
    }
    if (nesting === 0) entry.ms += details?.duration_ms ?? 0;
  }
  const cwd = `${process.cwd()}/`;
  for (const [file, entry] of [...files].sort((a, b) => b[1].ms - a[1].ms)) {
    yield `${(entry.ms / 1000).toFixed(1)}\t${entry.tests}\t${entry.failed}\t${file.startsWith(cwd) ? file.slice(cwd.length) : file}\n`;
  }
}
