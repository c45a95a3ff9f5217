/** Where the CLI writes, and how: aligned text for people, JSON (one document per command) with `--json`. */
export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}

export class Output {
  constructor(
    private readonly io: CliIo,
    readonly json: boolean,
  ) {}

  /** The command's result: `value` as JSON with --json, else the text lines `human()` returns. */
  result(value: unknown, human: () => readonly string[]): void {
    if (this.json) this.io.stdout(`${JSON.stringify(value, null, 2)}\n`);
    else for (const line of human()) this.io.stdout(`${line}\n`);
  }

  /** A remark for people (never part of the machine-readable output). */
  note(text: string): void {
    this.io.stderr(`${text}\n`);
  }

  error(text: string): void {
    this.io.stderr(`error: ${text}\n`);
  }
}

/** `label: value` lines with the values aligned; rows whose value is undefined or empty are left out. */
export function fields(rows: ReadonlyArray<readonly [string, string | number | undefined]>, indent = '  '): string[] {
  const shown = rows.filter(([, value]) => value !== undefined && value !== '');
  const width = Math.max(0, ...shown.map(([label]) => label.length + 1));
  return shown.map(([label, value]) => `${indent}${`${label}:`.padEnd(width)} ${value}`);
}

/** A plain text table with a header row; columns are padded to their widest cell. */
export function table(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string[] {
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)];
}

export function formatTime(ms: number | undefined): string | undefined {
  return ms ? new Date(ms).toISOString() : undefined;
}
