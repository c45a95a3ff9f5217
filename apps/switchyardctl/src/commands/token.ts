import type { Command } from 'commander';
import { fields } from '../output';
import { resolveUser } from '../resolve-user';
import type { StatusOk, UserAccessToken } from '../types';
import type { CommandContext } from './context';
import { describeUser } from './present';

/** `token create|revoke`: personal access tokens (users and bots alike). */
export function registerTokenCommands(program: Command, ctx: CommandContext): void {
  const token = program.command('token').description('manage personal access tokens');

  token
    .command('create')
    .description('create a personal access token for a user or bot; the secret is printed once')
    .argument('<user>', 'the user\'s or bot\'s username or id (an e-mail works too)')
    .requiredOption('--description <text>', 'what the token is for (at most 255 characters)')
    .action(async (reference: string, options: { description: string }, command: Command) => {
      await ctx.run(command, async ({ client }, out) => {
        const owner = await resolveUser(client, reference);
        const created = await client.post<UserAccessToken>(`/users/${owner.id}/tokens`, { description: options.description });
        out.result(created, () => [
          `created token for ${describeUser(owner)}`,
          ...fields([
            ['token id', created.id],
            ['token', created.token],
            ['description', created.description],
          ]),
        ]);
        if (!out.json) out.note('The token is shown only this once: store it now. Revoke it with: switchyardctl token revoke <token id>');
      });
    });

  token
    .command('revoke')
    .description('revoke a personal access token and end its session (POST /users/tokens/revoke)')
    .argument('<token-id>', 'the token id (not the secret)')
    .action(async (tokenId: string, _options: unknown, command: Command) => {
      await ctx.run(command, async ({ client }, out) => {
        const id = tokenId.trim();
        const answer = await client.post<StatusOk>('/users/tokens/revoke', { token_id: id });
        out.result({ ...answer, token_id: id }, () => [`revoked token ${id}`]);
      });
    });
}
