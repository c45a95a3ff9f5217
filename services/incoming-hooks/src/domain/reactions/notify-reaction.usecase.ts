import { createHash } from 'node:crypto';
import type { ReactionEventPayload } from '@switchyard/contracts';
import type { IncomingHook } from '../entities';
import type { Deps } from '../ports';
import { templateOf } from '../transform/templates';

/** The system bot's username (users-bots creates it at start). */
export const SYSTEM_BOT_USERNAME = 'switchyard';
const ID_ALPHABET = 'ybndrfg8ejkmcpqxot1uwisza345h769';

/** A 26-char id derived from the reaction, so a redelivered event never sends a second DM. */
export function notificationPostId(reaction: ReactionEventPayload['reaction']): string {
  const digest = createHash('sha256').update(`reaction-notification\n${reaction.post_id}\n${reaction.user_id}\n${reaction.emoji_name}\n${reaction.create_at}`).digest();
  let id = '';
  for (let i = 0; i < 26; i += 1) id += ID_ALPHABET[(digest[i] ?? 0) % 32];
  return id;
}

function excerpt(message: string): string {
  const flat = message.replace(/\s+/g, ' ').trim();
  const chars = Array.from(flat);
  return chars.length > 80 ? `${chars.slice(0, 80).join('')}…` : flat;
}

/** The DM's text: the emoji, the reacting user, the channel and the post. */
export function notificationMessage(payload: ReactionEventPayload, hookTitle: string): string {
  const channel = payload.channel.type === 'D' || payload.channel.type === 'G' ? 'a direct message' : `~${payload.channel.name}`;
  const where = payload.team && payload.channel.type !== 'D' && payload.channel.type !== 'G' ? ` (${payload.team.name})` : '';
  const quoted = excerpt(payload.post.message);
  const title = hookTitle ? ` "${hookTitle}"` : '';
  return `:${payload.reaction.emoji_name}: @${payload.reactor.username} reacted to a post of your incoming webhook${title} in ${channel}${where}: post ${payload.post.id}${quoted ? ` — ${quoted}` : ''}`;
}

/**
 * `reaction.added` on a post made by one of our hooks whose `reaction_notifications` is on → a DM from
 * the system bot `switchyard` to the hook's owner. Returns whether a DM was queued.
 */
/** A built-in template's hook posts as its integration's bot: such a post is the hook's too. */
async function madeByItsIntegration(deps: Deps, hook: IncomingHook, authorId: string): Promise<boolean> {
  const bot = hook.transform && 'template' in hook.transform ? templateOf(hook.transform.template)?.bot : undefined;
  return bot !== undefined && (await deps.users.integrationSender(bot.username)).userId === authorId;
}

export async function notifyReaction(deps: Deps, payload: ReactionEventPayload): Promise<boolean> {
  const hookId = payload.incoming_hook_id;
  if (hookId === undefined || payload.post.props.from_webhook !== 'true') return false;
  const hook = await deps.hooks.findById(hookId);
  if (!hook || hook.deleteAt > 0 || !hook.reactionNotifications) return false;
  if (hook.userId !== payload.post.user_id && !(await madeByItsIntegration(deps, hook, payload.post.user_id))) return false;
  // The system bot, or (its name held by an ordinary user, as for an integration's bot) that user: no BOT label, users-bots logs the fixes.
  const [bot] = await deps.users.usersByUsernames([SYSTEM_BOT_USERNAME]);
  if (!bot) return false;
  if (payload.reactor.id === bot.id) return false;
  const dm = await deps.channels.directChannel(bot.id, hook.userId);
  await deps.postCommands.create(
    [
      {
        id: notificationPostId(payload.reaction),
        channel_id: dm.id,
        user_id: bot.id,
        message: notificationMessage(payload, hook.displayName),
        type: '',
        props: bot.isBot ? { from_bot: 'true' } : {},
        root_id: '',
        create_at: deps.clock.now(),
      },
    ],
    { source: 'system', hookId: hook.id, until: 'queued' },
  );
  return true;
}
