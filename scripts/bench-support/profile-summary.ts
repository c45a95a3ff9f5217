/**
 * Summarises a `.cpuprofile` (from `BENCH_CPU_PROF=<dir>` or `node --cpu-prof`): self time by function and
 * by source file, and inclusive time of the functions whose name matches `--focus`.
 *
 * `--timeline` prints busy ms per second of the profile, to pick the load window; `--from-s`/`--to-s` keep
 * only samples in that window (seconds from the profile's start), so start-up and other phases stay out.
 *
 *   node --import tsx scripts/bench-support/profile-summary.ts <file.cpuprofile> [--top 40] [--focus regex] [--timeline] [--from-s 5 --to-s 12]
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly children?: readonly number[];
}

interface Profile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

function shortUrl(url: string): string {
  const cut = url.replace(/^file:\/\//, '').replace(/^.*\/node_modules\//, 'nm:').replace(/^\/work\/[^/]+\//, '');
  return cut === '' ? '(native)' : cut;
}

function label(node: ProfileNode): string {
  const name = node.callFrame.functionName || '(anonymous)';
  return `${name} ${shortUrl(node.callFrame.url)}:${node.callFrame.lineNumber + 1}`;
}

function table(title: string, totals: Map<string, number>, all: number, top: number): string {
  const rows = [...totals.entries()].sort((a, b) => b[1] - a[1]).slice(0, top);
  return [`== ${title}`, ...rows.map(([key, us]) => `${((100 * us) / all).toFixed(1).padStart(5)} %  ${(us / 1000).toFixed(0).padStart(6)} ms  ${key}`)].join('\n');
}

function main(): void {
  const args = process.argv.slice(2);
  const file = args[0];
  if (!file) throw new Error('usage: profile-summary <file.cpuprofile> [--top N] [--focus regex]');
  const option = (name: string): string | undefined => {
    const at = args.indexOf(name);
    return at >= 0 ? args[at + 1] : undefined;
  };
  const top = Number(option('--top') ?? 40);
  const focus = option('--focus');
  const fromUs = Number(option('--from-s') ?? 0) * 1e6;
  const toUs = Number(option('--to-s') ?? Infinity) * 1e6;
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const self = new Map<number, number>();
  const timeline: number[] = [];
  let at = 0;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    at += delta;
    const idle = byId.get(id)?.callFrame.functionName === '(idle)';
    const second = Math.floor(at / 1e6);
    if (!idle) timeline[second] = (timeline[second] ?? 0) + delta;
    if (at >= fromUs && at < toUs) self.set(id, (self.get(id) ?? 0) + delta);
  });
  if (args.includes('--timeline')) {
    process.stdout.write(`${Array.from(timeline, (us, s) => `${String(s).padStart(4)} s  ${((us ?? 0) / 1000).toFixed(0).padStart(5)} ms busy`).join('\n')}\n`);
  }
  let all = 0;
  const byFunction = new Map<string, number>();
  const byFile = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const focusRe = focus ? new RegExp(focus) : undefined;
  for (const [id, us] of self) {
    const node = byId.get(id);
    if (!node) continue;
    if (node.callFrame.functionName === '(idle)') continue;
    all += us;
    const fn = label(node);
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + us);
    const where = shortUrl(node.callFrame.url);
    byFile.set(where, (byFile.get(where) ?? 0) + us);
    // Inclusive: every distinct ancestor label (once per stack) gets the sample's time.
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at);
      if (!frame) break;
      const name = label(frame);
      if (seen.has(name)) continue;
      seen.add(name);
      if (!focusRe || focusRe.test(name)) inclusive.set(name, (inclusive.get(name) ?? 0) + us);
    }
  }
  process.stdout.write(`busy ${(all / 1000).toFixed(0)} ms (idle excluded)\n`);
  process.stdout.write(`${table('self time by function', byFunction, all, top)}\n`);
  process.stdout.write(`${table('self time by file', byFile, all, top)}\n`);
  process.stdout.write(`${table(`inclusive time${focus ? ` (${focus})` : ''}`, inclusive, all, top)}\n`);
}

main();
