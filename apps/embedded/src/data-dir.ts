import { resolve } from 'node:path';

export const DEFAULT_DATA_DIR = './data';

/**
 * The data directory: `--data-dir <dir>` or `--data-dir=<dir>` on the command line, else DATA_DIR,
 * else ./data (relative to the working directory). Returns an error message for a flag without a value.
 */
export function dataDirFrom(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): { dir: string } | { error: string } {
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] ?? '';
    if (arg === '--data-dir') {
      const value = argv[i + 1];
      if (value === undefined || value === '' || value.startsWith('--')) return { error: '--data-dir needs a directory' };
      return { dir: resolve(value) };
    }
    if (arg.startsWith('--data-dir=')) {
      const value = arg.slice('--data-dir='.length);
      if (value === '') return { error: '--data-dir needs a directory' };
      return { dir: resolve(value) };
    }
  }
  const fromEnv = env.DATA_DIR;
  return { dir: resolve(fromEnv !== undefined && fromEnv !== '' ? fromEnv : DEFAULT_DATA_DIR) };
}
