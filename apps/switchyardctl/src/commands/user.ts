import type { Command } from 'commander';
import { resolveUser } from '../resolve-user';
import type { Bot } from '../types';
import { UsageError } from '../usage-error';
import type { CommandContext } from './context';
import { describeBot, describeUser } from './present';

/** `user convert <email|username|id> --bot` → POST /users/{id}/convert_to_bot (needs manage_system). */
export function registerUserCommands(program: Command, ctx: CommandContext): void {
  const user = program.command('user').description('manage users');

  user
    .command('convert')
    .description('convert a user account to a bot account (password sign-in data is removed)')
    .argument('<user>', 'the user\'s e-mail, username or id')
    .option('--bot', 'convert to a bot (the only conversion supported)')
    .action(async (reference: string, options: { bot?: boolean }, command: Command) => {
      if (!options.bot) throw new UsageError('user convert: say what to convert to: --bot');
      await ctx.run(command, async ({ client }, out) => {
        const target = await resolveUser(client, reference);
        const bot = await client.post<Bot>(`/users/${target.id}/convert_to_bot`);
        out.result(bot, () => [`converted user ${describeUser(target)} to a bot`, ...describeBot(bot)]);
      });
    });
}
