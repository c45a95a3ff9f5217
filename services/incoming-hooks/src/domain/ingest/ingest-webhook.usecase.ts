import type { InternalUser } from '@switchyard/contracts';
import { isAppError } from '@switchyard/errors';
import { isValidId } from '@switchyard/ids';
import type { IncomingHook, StoredResponse } from '../entities';
import { Errors } from '../errors';
import type { Deps, HookFile, NewPost } from '../ports';
import { retryIds } from './retry-ids';
import { planPosts, toNewPosts, webhookProps } from './build-posts';
import { withIdempotency } from './idempotency';
import { resolveDestination } from './resolve-destination';
import { attachmentTexts, mentionedIds, processAttachments, processSlackText, textLinksToMarkdown } from './slack-markup';
import type { WebhookRequest } from './webhook-request';

export type IngestOutcome = { readonly ok: true; readonly postIds: readonly string[] } | { readonly ok: false; readonly error: unknown };

export interface IngestInput {
  readonly hookId: string;
  /** `null` when the body was missing or JSON `null`. */
  readonly request: WebhookRequest | null;
  readonly idempotencyKey?: string;
  readonly requestId?: string;
  /** The posts' author when not the hook's owner (a built-in integration's bot); the owner's rights still decide the channel. */
  readonly postAs?: { readonly userId: string; readonly isBot: boolean };
  /** A multipart request's files (README "Files on incoming hooks"): the post carries them. */
  readonly files?: readonly HookFile[];
  /** How an outcome is answered (the HTTP layer's format), so an idempotent replay is byte for byte the same. */
  readonly present: (outcome: IngestOutcome) => StoredResponse;
}

/**
 * `POST /hooks/{key}` (mattermost-wire.md §9): checks in the reference's order, then the create commands
 * (ids assigned here, before publishing) go to posts.commands; resolves once every post is stored and
 * readable (`IncomingWebhookAckMode` `stored`, the default) or once they are durably queued (`queued`).
 * Errors before the hook is known are thrown; later ones, with an Idempotency-Key, are answered (and
 * remembered) through `present`.
 */
export async function ingestWebhook(deps: Deps, input: IngestInput): Promise<StoredResponse> {
  const config = deps.liveConfig.current();
  if (!config.ServiceSettings.EnableIncomingWebhooks) throw Errors.disabled();
  const req = input.request;
  if (req === null) throw Errors.parse();
  const files = input.files ?? [];
  // Blocks alone are a message too (their text is the console's; `text` is the fallback elsewhere); so are files.
  if (req.text === '' && req.attachments === null && req.blocks === null && files.length === 0) throw Errors.noText();
  const hook = await deps.hooks.findById(input.hookId);
  if (!hook || hook.deleteAt > 0) throw Errors.invalidHook();
  if (files.length > 0 && !config.FileSettings.EnableFileAttachments) throw Errors.attachmentsDisabled();
  const limits = config.RateLimitSettings;
  if (limits.IncomingWebhookPerSec > 0) {
    const decision = await deps.rateLimiter.consume(hook.id, limits.IncomingWebhookPerSec, limits.IncomingWebhookMaxBurst);
    if (!decision.allowed) {
      throw Errors.rateLimited({
        'Retry-After': String(decision.retryAfterSeconds),
        'X-RateLimit-Limit': String(decision.limit),
        'X-RateLimit-Remaining': '0',
      });
    }
  }
  const run = async (since?: number): Promise<StoredResponse> => {
    try {
      const postIds = await createPosts(deps, hook, req, files, input, since);
      return input.present({ ok: true, postIds });
    } catch (error) {
      if (input.idempotencyKey === undefined || !isAppError(error) || error.statusCode >= 500) throw error;
      return input.present({ ok: false, error });
    }
  };
  if (input.idempotencyKey === undefined) return run();
  return withIdempotency(deps, hook.id, input.idempotencyKey, run);
}

/**
 * `root_id` of a webhook post (wire-2 §4.3), checked after the channel and permission checks: not an id →
 * 400 invalid_param root_id; unknown or deleted, in another channel, or itself a reply → 400
 * api.post.create_post.root_id.app_error (posts would refuse it too, after the hook had answered).
 */
async function checkThreadRoot(deps: Deps, channelId: string, rootId: string): Promise<void> {
  if (rootId === '') return;
  if (!isValidId(rootId)) throw Errors.invalidParam('root_id');
  const root = await deps.channels.post(rootId);
  if (!root || root.delete_at !== 0 || root.channel_id !== channelId || root.root_id !== '') throw Errors.rootId();
}

/** The posts an earlier try of the same keyed request already got stored are not sent again (posts would not answer for them). */
async function notYetStored(deps: Deps, posts: readonly NewPost[]): Promise<NewPost[]> {
  const found = await Promise.all(posts.map((p) => deps.channels.post(p.id)));
  return posts.filter((_, i) => !found[i]);
}

async function createPosts(deps: Deps, hook: IncomingHook, req: WebhookRequest, files: readonly HookFile[], input: IngestInput, since: number | undefined): Promise<string[]> {
  const { requestId, postAs } = input;
  // Keyed: the same ids on every try (a retry after a 5xx finds what the first try left, see retryIds).
  const idOf = input.idempotencyKey !== undefined && since !== undefined ? retryIds(hook.id, input.idempotencyKey, since) : undefined;
  let part = 0;
  const config = deps.liveConfig.current();
  const loadOwner = async (): Promise<InternalUser> => {
    const [owner] = await deps.users.usersByIds([hook.userId]);
    if (!owner) throw Errors.ownerNotFound();
    return owner;
  };
  const { channel, owner } = await resolveDestination(deps, hook, req.channel, loadOwner);
  await checkThreadRoot(deps, channel.id, req.root_id);
  if (req.priority !== null && (req.priority.priority === undefined || req.priority.priority === null)) {
    throw Errors.invalidParam('webhook.priority.priority');
  }
  // 11.10: a silent post notifies nobody, so it cannot ask for persistent notifications.
  if (req.silent && req.priority?.persistent_notifications === true) throw Errors.invalidParam('webhook.silent');
  if (req.type.startsWith('system_')) throw Errors.invalidParam('post.type');
  const attachments = req.attachments !== null && req.attachments.length > 0 ? req.attachments : null;
  if (attachments === null && req.type !== '' && req.type !== 'slack_attachment' && !req.type.startsWith('custom_')) {
    throw Errors.creating(`invalid post type ${JSON.stringify(req.type)}; only custom_ types may be given`);
  }
  const ids = mentionedIds([req.text, ...(attachments ? attachmentTexts(attachments) : [])]);
  const usernames = new Map<string, string>();
  if (ids.length > 0) for (const user of await deps.users.usersByIds(ids)) usernames.set(user.id, user.username);
  const message = textLinksToMarkdown(processSlackText(req.text, usernames));
  const processed = attachments ? processAttachments(attachments, usernames) : null;
  const plans = planPosts(message, webhookProps(hook, req, postAs ? { ...owner, isBot: postAs.isBot } : owner, config), processed);
  const posts = toNewPosts({
    plans,
    channelId: channel.id,
    userId: postAs?.userId ?? hook.userId,
    type: attachments ? 'slack_attachment' : req.type,
    rootId: req.root_id,
    priority: req.priority,
    now: deps.clock.now(),
    newId: idOf ? () => idOf(`post:${part++}`) : () => deps.ids.newId(),
  });
  const postIds = posts.map((p) => p.id);
  const unsent = idOf ? await notYetStored(deps, posts) : posts;
  if (unsent.length === 0) return postIds;
  const until = config.ServiceSettings.IncomingWebhookAckMode === 'queued' ? 'queued' : 'stored';
  const meta = { source: 'incoming_webhook', hookId: hook.id, until, ...(requestId ? { requestId } : {}) } as const;
  const last = posts[posts.length - 1];
  // No files, or the part carrying them was stored by an earlier try (with its files).
  if (files.length === 0 || !unsent.includes(last as NewPost)) {
    await deps.postCommands.create(unsent, meta);
    return postIds;
  }
  // Every check above passed: the files are stored now (all or none), and the last part carries them, as its attachments.
  const author = postAs?.userId ?? hook.userId;
  const fileIds = await deps.hookFiles.upload(channel.id, author, files, idOf ? files.map((_, i) => idOf(`file:${i}`)) : undefined);
  const withFiles = unsent.map((p) => (p === last ? { ...p, file_ids: fileIds } : p));
  try {
    await deps.postCommands.create(withFiles, meta);
  } catch (error) {
    // posts refused the post: its files go too. (Not on a 5xx such as the store timeout: the post may still appear.)
    if (isAppError(error) && error.statusCode < 500) await deps.hookFiles.discard(author, fileIds).catch(() => undefined);
    throw error;
  }
  return postIds;
}
