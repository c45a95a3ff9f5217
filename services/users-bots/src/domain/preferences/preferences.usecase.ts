import { badRequest, commonErrors, forbidden, notFound } from '@switchyard/errors';
import { isValidId } from '@switchyard/ids';
import { Permissions } from '@switchyard/permissions';
import type { Actor } from '../authorization';
import { can, requireSelfOrEditOthers } from '../authorization';
import type { Deps } from '../ports';
import { CRT_PREFERENCE, normalizePreference, preferenceError, type Preference } from './preference';

type PrefDeps = Pick<Deps, 'preferences' | 'events' | 'postAccess'>;

/**
 * The reference's check of `flagged_post` preferences (their name is a post id): a post that does not exist
 * (or was deleted) is 400 invalid_body_param `preference.name`; one in a channel the caller cannot read is 403
 * read_channel (members read; system admins read everything).
 */
async function checkFlaggedPosts(deps: PrefDeps, actor: Actor, preferences: readonly Preference[]): Promise<void> {
  if (!deps.postAccess) return;
  for (const p of preferences) {
    if (p.category !== 'flagged_post') continue;
    const channelId = isValidId(p.name) ? await deps.postAccess.channelOfPost(p.name) : undefined;
    if (channelId === undefined) throw commonErrors.invalidBodyParam('preference.name');
    if (!can(actor, Permissions.readChannel) && !(await deps.postAccess.isChannelMember(channelId, actor.userId))) throw commonErrors.permissions(actor.userId, Permissions.readChannel);
  }
}

/** `GET /users/{id}/preferences`: self or edit_other_users (403). */
export async function listPreferences(deps: PrefDeps, actor: Actor, userId: string): Promise<Preference[]> {
  requireSelfOrEditOthers(actor, userId);
  return deps.preferences.listByUser(userId);
}

/** `GET /users/{id}/preferences/{category}`: none in that category is 404, as the reference. */
export async function listCategory(deps: PrefDeps, actor: Actor, userId: string, category: string): Promise<Preference[]> {
  requireSelfOrEditOthers(actor, userId);
  const found = await deps.preferences.listByCategory(userId, category);
  if (found.length === 0) throw notFound('api.preference.preferences_category.get.app_error', 'Unable to find preferences for that category.');
  return found;
}

/** `GET /users/{id}/preferences/{category}/name/{name}`: a missing one is the reference's 400 app.preference.get. */
export async function getPreference(deps: PrefDeps, actor: Actor, userId: string, category: string, name: string): Promise<Preference> {
  requireSelfOrEditOthers(actor, userId);
  const found = await deps.preferences.find(userId, category, name);
  if (!found) throw badRequest('app.preference.get.app_error', 'Unable to get preference.');
  return found;
}

/**
 * `PUT /users/{id}/preferences`: every preference must be the URL user's (403), each valid as the reference's
 * Preference.IsValid (400, nothing saved), themes normalised; saved at once; `preferences_changed` to the user.
 */
export async function updatePreferences(deps: PrefDeps, actor: Actor, userId: string, preferences: readonly Preference[]): Promise<void> {
  requireSelfOrEditOthers(actor, userId);
  await checkFlaggedPosts(deps, actor, preferences);
  for (const p of preferences) {
    if (p.user_id !== userId) throw forbidden('api.preference.update_preferences.set.app_error', 'Unable to set user preferences.', { detailedError: `userId=${userId}, preference.UserId=${p.user_id}` });
  }
  const normalized = preferences.map(normalizePreference);
  for (const p of normalized) {
    const error = preferenceError(p);
    if (error) throw error;
  }
  await deps.preferences.save(normalized);
  await deps.events.preferences?.('changed', userId, normalized).catch(() => undefined);
}

/** `POST /users/{id}/preferences/delete`: every preference must be the URL user's (403); `preferences_deleted` to the user. */
export async function deletePreferences(deps: PrefDeps, actor: Actor, userId: string, preferences: readonly Preference[]): Promise<void> {
  requireSelfOrEditOthers(actor, userId);
  for (const p of preferences) {
    if (p.user_id !== userId) throw forbidden('api.preference.delete_preferences.delete.app_error', 'Unable to delete user preferences.', { detailedError: `userId=${userId}, preference.UserId=${p.user_id}` });
  }
  for (const p of preferences) await deps.preferences.delete(userId, p.category, p.name);
  await deps.events.preferences?.('deleted', userId, preferences).catch(() => undefined);
}

/** The collapsed-threads preference of each of these users that set one (`on`/`off`), for posts. */
export function crtPreferences(deps: PrefDeps, userIds: readonly string[]): Promise<ReadonlyMap<string, string>> {
  return deps.preferences.valuesOf(userIds, CRT_PREFERENCE.category, CRT_PREFERENCE.name);
}
