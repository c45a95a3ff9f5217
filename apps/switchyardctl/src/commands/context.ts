import type { Command } from 'commander';
import type { Output } from '../output';
import type { Session } from '../session';

/** What every command action gets: an authenticated session (closed afterwards) and the output. */
export type CommandWork = (session: Session, out: Output) => Promise<void>;

export interface CommandContext {
  /** Runs `work` for the command whose action is executing; `command` gives access to the global options. */
  run(command: Command, work: CommandWork): Promise<void>;
}
