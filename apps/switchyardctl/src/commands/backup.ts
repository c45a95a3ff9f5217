import { resolve } from 'node:path';
import type { Command } from 'commander';
import { ApiError } from '../api-client';
import { fields, Output } from '../output';
import { UsageError } from '../usage-error';
import { restoreArchive } from './restore-archive';
import type { CommandContext } from './context';

/**
 * `backup <file>`: an online backup of a running embedded Switchyard (GET /api/v4/system/backup, system
 * admins), written to `<file>`: a tar of the store and the uploaded files directory (older backups are a
 * bare SQLite file). `restore <file> --data-dir <dir>`: offline, on this machine, with the server stopped:
 * replaces the data directory's database with the backup's, and its files directory with the backup's.
 */
export function registerBackupCommands(program: Command, ctx: CommandContext, io: { stdout(text: string): void; stderr(text: string): void }): void {
  program
    .command('backup')
    .description('download an online backup of a running embedded Switchyard (system admins) into <file>')
    .argument('<file>', 'where to write the backup (a tar: the SQLite store and the files directory)')
    .action(async (file: string, _options: unknown, command: Command) => {
      await ctx.run(command, async ({ client }, out) => {
        const target = resolve(file);
        const bytes = await client.download('/system/backup', target);
        out.result({ file: target, bytes }, () => [`backup written to ${target}`, ...fields([['bytes', String(bytes)]])]);
      });
    });

  program
    .command('restore')
    .description('replace a stopped embedded Switchyard\'s data with a backup (local; the server must be stopped)')
    .argument('<file>', 'a backup written by switchyardctl backup')
    .requiredOption('--data-dir <dir>', 'the data directory of the stopped server (its DATA_DIR / --data-dir)')
    .action(async (file: string, options: { dataDir: string }, command: Command) => {
      const json = command.optsWithGlobals<{ json?: boolean }>().json === true;
      const out = new Output(io, json);
      if (options.dataDir.trim() === '') throw new UsageError('--data-dir needs a directory');
      // Loaded here: only restore needs the native SQLite module.
      const { isStoreOpenError } = await import('@switchyard/sqlite-kit');
      try {
        const { versions, filesDir } = await restoreArchive(resolve(file), resolve(options.dataDir));
        out.result({ file: resolve(file), data_dir: resolve(options.dataDir), schema_versions: versions, files_dir: filesDir }, () => [
          `restored ${resolve(file)} into ${resolve(options.dataDir)}`,
          ...fields(Object.entries(versions).map(([component, version]) => [`${component} schema`, String(version)])),
          ...fields([['files', filesDir ?? 'not in the backup']]),
        ]);
      } catch (error) {
        if (isStoreOpenError(error)) throw new ApiError(`switchyardctl.restore.${error.reason}`, error.message, 0);
        throw error;
      }
    });
}
