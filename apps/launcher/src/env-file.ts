import { existsSync, readFileSync } from 'node:fs';

/** Reads `KEY=value` lines (deploy/local/.env); comments and blank lines are skipped. */
export function readEnvFile(path: string): Record<string, string> {
  if (!existsSync(path)) return {};
  const out: Record<string, string> = {};
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const eq = trimmed.indexOf('=');
    if (eq <= 0) continue;
    out[trimmed.slice(0, eq)] = trimmed.slice(eq + 1).replace(/^"(.*)"$/, '$1');
  }
  return out;
}
