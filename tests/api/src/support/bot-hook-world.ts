import type { Channel } from '@mattermost/types/channels';
import { assertJson, raw } from './http';
import { givenIntegrationWorld, type IntegrationWorld } from './integration-world';
import { newChannel, teamBot, type Actor } from './posts-fixtures';

/** An integration world with a bot, a private channel the bot and the member are in, and the bot's outgoing hook. */
export interface BotHookWorld<Hook> {
  readonly world: IntegrationWorld;
  readonly bot: Actor;
  /** Private; the admin, the member and the bot are in it. */
  readonly priv: Channel;
  /** The hook as `POST /api/v4/hooks/outgoing` answered. */
  readonly hook: Hook;
}

/**
 * What the bot-hook suites start from: bot accounts on, a bot in the team, a private channel with the member
 * and the bot, and an outgoing hook (JSON) for that bot calling the receiver at `path`, hearing `eventTypes`
 * (the server's default when not given).
 */
export async function givenBotHookWorld<Hook>(options: { path: string; eventTypes?: readonly string[] }): Promise<BotHookWorld<Hook>> {
  const world = await givenIntegrationWorld({ serviceSettings: { EnableBotAccountCreation: true } });
  const bot = await teamBot(world.target.url, world.admin, world.team);
  const priv = await newChannel(world.admin, world.team, 'P');
  await world.admin.client.addToChannel(world.member.id, priv.id);
  await world.admin.client.addToChannel(bot.id, priv.id);
  const body: Record<string, unknown> = { team_id: world.team.id, bot_user_id: bot.id, callback_urls: [`${world.receiver.url}${options.path}`], content_type: 'application/json' };
  if (options.eventTypes !== undefined) body.event_types = options.eventTypes;
  const res = await raw(world.target.url, 'POST', '/api/v4/hooks/outgoing', { token: world.admin.token, body });
  assertJson(res, 201);
  return { world, bot, priv, hook: res.json as Hook };
}
