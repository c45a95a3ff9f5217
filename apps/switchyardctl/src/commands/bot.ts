import type { Command } from 'commander';
import { table } from '../output';
import { looksLikeId, resolveUser } from '../resolve-user';
import type { ApiClient } from '../api-client';
import type { Bot } from '../types';
import type { CommandContext } from './context';
import { botStatus, describeBot } from './present';

const PAGE_SIZE = 200;
const MAX_PAGES = 10_000;

/** `bot list|create|disable|enable` over /api/v4/bots. */
export function registerBotCommands(program: Command, ctx: CommandContext): void {
  const bot = program.command('bot').description('manage bot accounts');

  bot
    .command('list')
    .description('list bots (GET /bots, every page)')
    .option('--include-deleted', 'also list disabled bots')
    .action(async (options: { includeDeleted?: boolean }, command: Command) => {
      await ctx.run(command, async ({ client }, out) => {
        const bots = await listBots(client, options.includeDeleted === true);
        out.result(bots, () =>
          bots.length === 0
            ? ['no bots']
            : table(
                ['USERNAME', 'USER ID', 'DISPLAY NAME', 'OWNER ID', 'STATUS'],
                bots.map((b) => [b.username, b.user_id, b.display_name ?? '', b.owner_id ?? '', botStatus(b)]),
              ),
        );
      });
    });

  bot
    .command('create')
    .description('create a bot owned by the signed-in user (needs ServiceSettings.EnableBotAccountCreation)')
    .argument('<username>', 'bot username: 3–22 characters, a-z 0-9 . _ -, starting with a letter')
    .option('--display-name <name>', 'display name')
    .option('--description <text>', 'description')
    .action(async (username: string, options: { displayName?: string; description?: string }, command: Command) => {
      await ctx.run(command, async ({ client }, out) => {
        const body: Record<string, string> = { username };
        if (options.displayName !== undefined) body.display_name = options.displayName;
        if (options.description !== undefined) body.description = options.description;
        const created = await client.post<Bot>('/bots', body);
        out.result(created, () => [`created bot ${created.username}`, ...describeBot(created)]);
      });
    });

  for (const action of ['disable', 'enable'] as const) {
    bot
      .command(action)
      .description(`${action} a bot (POST /bots/{id}/${action})`)
      .argument('<bot>', 'the bot\'s username or user id')
      .action(async (reference: string, _options: unknown, command: Command) => {
        await ctx.run(command, async ({ client }, out) => {
          const botId = await resolveBotId(client, reference);
          const updated = await client.post<Bot>(`/bots/${botId}/${action}`);
          out.result(updated, () => [`${action}d bot ${updated.username}`, ...describeBot(updated)]);
        });
      });
  }
}

async function listBots(client: ApiClient, includeDeleted: boolean): Promise<Bot[]> {
  const all: Bot[] = [];
  for (let page = 0; page < MAX_PAGES; page++) {
    const bots = await client.get<Bot[]>('/bots', { page, per_page: PAGE_SIZE, include_deleted: includeDeleted || undefined });
    all.push(...bots);
    if (bots.length < PAGE_SIZE) break;
  }
  return all;
}

/** A 26-character id is used as is (the server answers 404 when it is no bot); otherwise the username's user id. */
async function resolveBotId(client: ApiClient, reference: string): Promise<string> {
  const ref = reference.trim();
  if (looksLikeId(ref)) return ref;
  return (await resolveUser(client, ref)).id;
}
