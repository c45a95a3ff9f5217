import { clientPost, type WirePost } from '@switchyard/contracts';
import { notFound } from '@switchyard/errors';
import { isValidId } from '@switchyard/ids';
import type { IncomingHook } from '../entities';
import { Errors } from '../errors';
import { webhookProps } from '../ingest/build-posts';
import { attachmentTexts, mentionedIds, processAttachments, processSlackText, textLinksToMarkdown } from '../ingest/slack-markup';
import type { WebhookRequest } from '../ingest/webhook-request';
import type { Deps } from '../ports';
import type { HookPosts } from './hook-posts.port';

const postNotFound = () => notFound('api.webhook.incoming.post_not_found.app_error', 'Unable to find a post this webhook created.');

/** The hook behind the key (the key is the credential, as for posting), or the intake's errors. */
async function hookOf(deps: Deps, key: string, postId: string): Promise<IncomingHook> {
  if (!deps.liveConfig.current().ServiceSettings.EnableIncomingWebhooks) throw Errors.disabled();
  const hook = await deps.hooks.findById(key);
  if (!hook || hook.deleteAt > 0) throw Errors.invalidHook();
  if (!isValidId(postId)) throw postNotFound();
  return hook;
}

/**
 * `PUT /hooks/{key}/posts/{post_id}`: the post's message and attachments become the body's (the intake's
 * markup, override and size rules; one post, never split). Only a post this hook made (posts checks it;
 * a locked hook: only in its channel) → the post as the API shows it.
 */
export async function editHookPost(deps: Deps, hookPosts: HookPosts, key: string, postId: string, req: WebhookRequest | null): Promise<Record<string, unknown>> {
  const hook = await hookOf(deps, key, postId);
  if (req === null) throw Errors.parse();
  if (req.text === '' && (req.attachments === null || req.attachments.length === 0)) throw Errors.noText();
  const [owner] = await deps.users.usersByIds([hook.userId]);
  if (!owner) throw Errors.ownerNotFound();
  const attachments = req.attachments !== null && req.attachments.length > 0 ? req.attachments : null;
  const ids = mentionedIds([req.text, ...(attachments ? attachmentTexts(attachments) : [])]);
  const usernames = new Map<string, string>();
  if (ids.length > 0) for (const user of await deps.users.usersByIds(ids)) usernames.set(user.id, user.username);
  const message = textLinksToMarkdown(processSlackText(req.text, usernames));
  const props: Record<string, unknown> = webhookProps(hook, req, owner, deps.liveConfig.current());
  if (attachments) props.attachments = processAttachments(attachments, usernames);
  const edited: WirePost = await hookPosts.edit(hook.id, postId, { message, props, ...(hook.channelLocked ? { channelId: hook.channelId } : {}) });
  return clientPost(edited);
}

/** `DELETE /hooks/{key}/posts/{post_id}` → `{"status":"OK"}`; the same 404 for any post the hook did not make. */
export async function deleteHookPost(deps: Deps, hookPosts: HookPosts, key: string, postId: string): Promise<void> {
  const hook = await hookOf(deps, key, postId);
  await hookPosts.remove(hook.id, postId, hook.channelLocked ? hook.channelId : undefined);
}
