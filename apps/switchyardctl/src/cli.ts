import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command, CommanderError } from 'commander';
import { isApiError } from './api-client';
import { registerBackupCommands } from './commands/backup';
import { registerBotCommands } from './commands/bot';
import { registerClusterBackupCommands } from './commands/cluster-backup';
import { registerDeadLetterCommands } from './commands/dead-letters';
import { registerDeliveryCommands } from './commands/delivery';
import type { CommandContext } from './commands/context';
import { registerTokenCommands } from './commands/token';
import { registerUserCommands } from './commands/user';
import { Output, type CliIo } from './output';
import { DEFAULT_URL, openSession, type Environment, type GlobalOptions } from './session';
import { isUsageError } from './usage-error';

/** Exit codes: 0 success, 1 the server (or the network) refused, 2 the command line was wrong. */
export const ExitCode = { ok: 0, apiError: 1, usage: 2 } as const;

export interface RunOptions {
  readonly env: Environment;
  readonly io: CliIo;
}

/** Parses `args` (without `node` and the script), runs the command and returns the exit code. Never throws. */
export async function runCli(args: readonly string[], options: RunOptions): Promise<number> {
  const version = packageVersion();
  const program = buildProgram(options, version);
  try {
    await program.parseAsync([...args], { from: 'user' });
    return ExitCode.ok;
  } catch (error) {
    const out = new Output(options.io, program.opts<GlobalOptions>().json === true);
    if (error instanceof CommanderError || (error as { name?: unknown }).name === 'CommanderError') {
      // commander has already printed the message or the help text.
      return (error as CommanderError).exitCode === 0 ? ExitCode.ok : ExitCode.usage;
    }
    if (isUsageError(error)) {
      out.error(error.message);
      options.io.stderr('(run switchyardctl --help for usage)\n');
      return ExitCode.usage;
    }
    if (isApiError(error)) {
      out.error(`${error.id}: ${error.message}`);
      if (error.requestId) options.io.stderr(`  request id: ${error.requestId}\n`);
      return ExitCode.apiError;
    }
    out.error(`switchyardctl.internal: ${error instanceof Error ? error.message : String(error)}`);
    return ExitCode.apiError;
  }
}

function buildProgram(options: RunOptions, version: string): Command {
  const { env, io } = options;
  const program = new Command('switchyardctl')
    .description('Admin tool for a running Switchyard server: users, bots and personal access tokens, over REST API v4; backup and restore of the embedded runtime\'s data.')
    .version(version, '-V, --version')
    .option('--url <url>', `server URL (default: $SWITCHYARD_URL or ${DEFAULT_URL})`)
    .option('--token <token>', 'personal access or session token (default: $SWITCHYARD_TOKEN)')
    .option('--login <login_id>', 'sign in with this username or e-mail instead of a token')
    .option('--password <password>', 'password for --login (default: $SWITCHYARD_PASSWORD, which keeps it out of `ps`)')
    .option('--json', 'print machine-readable JSON')
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })
    .showHelpAfterError('(run switchyardctl --help for usage)')
    .exitOverride();

  const ctx: CommandContext = {
    run: async (command, work) => {
      const globals = command.optsWithGlobals<GlobalOptions>();
      const out = new Output(io, globals.json === true);
      const session = await openSession(globals, env, `switchyardctl/${version}`);
      try {
        await work(session, out);
      } finally {
        await session.close();
      }
    },
  };
  registerUserCommands(program, ctx);
  registerBotCommands(program, ctx);
  registerTokenCommands(program, ctx);
  registerBackupCommands(program, ctx, io);
  registerDeliveryCommands(program, ctx);
  registerDeadLetterCommands(program, io, env);
  registerClusterBackupCommands(program, io, env);
  return program;
}

function packageVersion(): string {
  try {
    const manifest = JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')) as { version?: string };
    return manifest.version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}
