import { INTEGRATION_BOTS } from '@switchyard/contracts';
import { commonErrors } from '@switchyard/errors';
import { SYSTEM_BOT_OWNER } from '../entities';
import { isDuplicateKeyError } from '../errors';
import type { Deps } from '../ports';
import { botIconKey, SVG } from '../pictures/picture-keys';
import { insertBot } from './create-bot.usecase';
import { integrationBotIcon } from './integration-bot-icons';

/** Who an integration posts as: its bot, or (name taken by an ordinary user) that user. */
export type IntegrationSenderResult =
  | { readonly kind: 'bot'; readonly userId: string }
  | { readonly kind: 'user'; readonly userId: string; readonly username: string };

/** The fixes the requirements name for a bot name held by an ordinary user (integration-interface: name collision). */
export function collisionMessage(username: string, integration: string): string {
  return `the ${integration} integration's bot username "${username}" belongs to an ordinary user, so the integration posts as that user without the BOT label. `
    + `Fix: convert the user to a bot (switchyardctl user convert ${username} --bot), or rename the user and re-enable the integration `
    + `(its next post creates the bot).`;
}

/** The integration's badge (integration-bot-icons.ts) as the new bot's icon, through the uploads' SVG sanitiser. */
async function giveIcon(deps: Deps, botId: string, username: string): Promise<void> {
  const svg = await deps.pictures.sanitizeSvg(Buffer.from(integrationBotIcon(username) ?? '', 'utf8'));
  if (!svg) return;
  const now = deps.clock.now();
  await deps.images.put(botIconKey(botId), { contentType: SVG, data: svg, updateAt: now });
  await deps.bots.update(botId, { lastIconUpdate: now, updateAt: now });
}

/**
 * A built-in integration's bot (rule 10: a bot an integration ensures is owned by it, not by a user:
 * `system_owned`), created on first use; concurrent first uses create it once. A deleted (disabled) bot of
 * that name is used as it is. When an ordinary user holds the name, that user.
 */
export async function ensureIntegrationBot(deps: Deps, username: string): Promise<IntegrationSenderResult> {
  const displayName = INTEGRATION_BOTS[username];
  if (displayName === undefined || !Object.prototype.hasOwnProperty.call(INTEGRATION_BOTS, username)) throw commonErrors.invalidParam('username');
  const lookUp = async (): Promise<IntegrationSenderResult | undefined> => {
    const user = await deps.users.findByUsername(username);
    if (!user) return undefined;
    return user.isBot ? { kind: 'bot', userId: user.id } : { kind: 'user', userId: user.id, username: user.username };
  };
  const existing = await lookUp();
  if (existing) return existing;
  try {
    const view = await insertBot(deps, { username, displayName, description: `Posts what ${displayName} sends to incoming webhooks (built-in template).`, ownerId: SYSTEM_BOT_OWNER });
    await giveIcon(deps, view.bot.id, username);
    return { kind: 'bot', userId: view.bot.id };
  } catch (error) {
    if (isDuplicateKeyError(error) || (error as { id?: string }).id === 'app.user.save.username_exists.app_error') {
      const raced = await lookUp();
      if (raced) return raced;
    }
    throw error;
  }
}
