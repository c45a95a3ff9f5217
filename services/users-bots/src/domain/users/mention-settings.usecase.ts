import type { UserMentionSettings } from '@switchyard/contracts';
import { commonErrors } from '@switchyard/errors';
import type { User } from '../entities';
import type { Deps } from '../ports';
import { MAX_USERS_PER_LOOKUP } from './get-users-by-ids.usecase';

/** The reference's User.GetMentionKeys: `mention_keys` split at commas, each trimmed, empty ones dropped. */
export function mentionKeysOf(notifyProps: Readonly<Record<string, string>>): string[] {
  const raw = notifyProps.mention_keys ?? '';
  return raw
    .split(',')
    .map((key) => key.trim())
    .filter((key) => key !== '');
}

/**
 * What the user's notify props add to or take from the default mentions (`@username`, channel-wide words heeded), as the
 * reference's MentionKeywords.AddUser reads them; undefined when nothing (the defaults).
 */
export function mentionSettingsOf(user: Pick<User, 'notifyProps' | 'firstName'>): UserMentionSettings | undefined {
  const keys = mentionKeysOf(user.notifyProps);
  const firstName = user.notifyProps.first_name === 'true' ? user.firstName : '';
  const channel = user.notifyProps.channel === 'true';
  const comments = user.notifyProps.comments === 'root' || user.notifyProps.comments === 'any' ? user.notifyProps.comments : undefined;
  if (keys.length === 0 && firstName === '' && channel && comments === undefined) return undefined;
  return comments === undefined ? { mention_keys: keys, first_name: firstName, channel } : { mention_keys: keys, first_name: firstName, channel, comments };
}

/** Internal (posts only, no permission check): the mention settings of those of the users whose settings are not the defaults. */
export async function mentionSettings(deps: Pick<Deps, 'users'>, userIds: readonly string[]): Promise<Record<string, UserMentionSettings>> {
  if (userIds.length > MAX_USERS_PER_LOOKUP) throw commonErrors.invalidBodyParam('ids');
  const unique = [...new Set(userIds)];
  const out: Record<string, UserMentionSettings> = {};
  if (unique.length === 0) return out;
  for (const user of await deps.users.findByIds(unique)) {
    const settings = mentionSettingsOf(user);
    if (settings) out[user.id] = settings;
  }
  return out;
}
