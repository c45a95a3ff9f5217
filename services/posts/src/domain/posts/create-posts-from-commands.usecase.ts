import type { CreatePostCommandPayload, InternalUser } from '@switchyard/contracts';
import { isAppError, type AppError } from '@switchyard/errors';
import { isValidId } from '@switchyard/ids';
import type { Channel, StoredPost } from '../entities';
import { Errors } from '../errors';
import { countMentions } from '../channels/count-mentions';
import { followOnReply } from '../threads/follow-on-reply';
import type { Deps, PostCounts, RelayedPost } from '../ports';
import { checkCommandTarget, commandPost } from './command-post';
import type { CommandOutcome } from './create-post-from-command.usecase';
import { checkReplyRootOf } from './reply-root';
import { attachCommandFiles } from '../files/attach-files';

/** A command the use case refused (what createPostFromCommand throws for it: an AppError below 500). */
export interface RefusedCommand {
  readonly refused: AppError;
}

export type CommandResult = CommandOutcome | RefusedCommand;

export const isRefused = (result: CommandResult): result is RefusedCommand => 'refused' in result;

/** A refusal of this command (not an infrastructure failure, which fails the whole batch). */
const isRefusal = (error: unknown): error is AppError => isAppError(error) && error.statusCode < 500;

/**
 * `post.create` commands taken together (the commands consumer's batch): for each command the outcome of
 * createPostFromCommand, with the store and bus work shared. Per segment of commands (below): the channels
 * are read through the cache once each, the authors in one `usersByIds`, the reply roots in one
 * `findByIds`; the valid posts are inserted in one `insertMany`; duplicates and refused commands whose post
 * exists are read back in one `findByIds` and answered with the stored post (its pending events relayed
 * again); the relay gets the segment's writes in one call, so a channel's posts are published in one go and
 * cleared in one write; each channel's new posts are counted with one counter write.
 *
 * A segment ends before a command whose post id, or reply root, is a post of an earlier command of the
 * segment: that command must see the earlier one stored, as it would one command at a time. Within a
 * segment no command reads what another writes, so taking them together changes no outcome.
 *
 * Results come back in the commands' order. A command is refused (an AppError below 500, for the caller
 * to announce) as it would be alone; any other failure rejects the whole call (posts of it may be stored:
 * running the commands again one at a time finds them, idempotent by post id).
 *
 * `traces[i]`: the trace context of command i's message. The batch runs in a context of its own, so each
 * new post's post.created keeps its command's context (PendingEvent.trace) and continues that trace.
 */
export async function createPostsFromCommands(deps: Deps, payloads: readonly CreatePostCommandPayload[], traces: readonly (TraceContext | undefined)[] = []): Promise<CommandResult[]> {
  const results: CommandResult[] = [];
  for (const segment of segments(payloads, traces)) results.push(...(await createSegment(deps, segment.payloads, segment.traces)));
  return results;
}

/** A command's trace context (its message's W3C headers), kept on the post's post.created (PendingEvent.trace). */
export type TraceContext = Readonly<Record<string, string>>;

interface Segment {
  readonly payloads: CreatePostCommandPayload[];
  readonly traces: (TraceContext | undefined)[];
}

function segments(payloads: readonly CreatePostCommandPayload[], traces: readonly (TraceContext | undefined)[]): Segment[] {
  const out: Segment[] = [];
  let current: Segment = { payloads: [], traces: [] };
  let ids = new Set<string>();
  payloads.forEach((payload, at) => {
    const { id, root_id: rootId } = payload.post;
    if (ids.has(id) || (rootId !== '' && ids.has(rootId))) {
      out.push(current);
      current = { payloads: [], traces: [] };
      ids = new Set();
    }
    current.payloads.push(payload);
    current.traces.push(traces[at]);
    ids.add(id);
  });
  if (current.payloads.length > 0) out.push(current);
  return out;
}

/** A command's refusal met while checking it. */
class Refusal {
  public constructor(public readonly error: AppError) {}
}

/** A checked command: the post to insert and its channel. */
interface Valid {
  readonly post: StoredPost;
  readonly channel: Channel;
}

async function createSegment(deps: Deps, payloads: readonly CreatePostCommandPayload[], traces: readonly (TraceContext | undefined)[]): Promise<CommandResult[]> {
  const checked = await checkAll(deps, payloads);
  const valid = checked.flatMap((c, at) => (c instanceof Refusal ? [] : [{ at, ...c }]));
  // An incoming hook's files are claimed for its post before the insert (rare: one call per such command).
  for (const { at, post } of valid) {
    const fileIds = payloads[at]?.post.file_ids;
    if (fileIds && fileIds.length > 0) await attachCommandFiles(deps, post, fileIds, deps.clock.now(), payloads[at]?.source ?? 'incoming_webhook');
  }
  for (const { at, post } of valid) {
    const trace = traces[at];
    if (trace) post.pending_events = post.pending_events.map((event) => ({ ...event, trace }));
  }
  const { duplicates } = await deps.posts.insertMany(valid.map((v) => v.post));
  const duplicate = new Set(duplicates.map((i) => valid[i]?.at));
  const created = valid.filter((v) => !duplicate.has(v.at));
  // A reply counts on its root first, so its post.created carries the new reply_count.
  for (const { post } of created) if (post.root_id !== '') await deps.posts.recordReply(post.root_id, post.create_at, post.user_id);
  for (const { post, channel } of created) if (post.root_id !== '') await followOnReply(deps, post, channel).catch(() => undefined);
  const mentioned = new Map<string, readonly string[]>();
  for (const { post, channel } of created) {
    const ids = await countMentions(deps, post, channel).catch(() => undefined);
    if (ids) mentioned.set(post.id, ids);
  }
  // Refused commands and duplicates: answered with the stored post when it exists (redelivery, producer retry).
  const readBack = payloads.flatMap((payload, at) => (checked[at] instanceof Refusal || duplicate.has(at) ? [payload.post.id] : []));
  const stored = new Map((readBack.length > 0 ? await deps.posts.findByIds(readBack) : []).map((post) => [post.id, post]));
  const counted = countOnChannels(deps, created.map((v) => v.post));

  const results: CommandResult[] = [];
  const relayed: RelayedPost[] = [];
  payloads.forEach((payload, at) => {
    const c = checked[at] as Valid | Refusal;
    const existing = stored.get(payload.post.id);
    if (!(c instanceof Refusal) && !duplicate.has(at)) {
      const mentions = mentioned.get(c.post.id);
      relayed.push({ post: c.post, fresh: { post: c.post, channel: c.channel, ...(mentions ? { mentions } : {}) } });
      results.push({ post: c.post, created: true, counted: counted.get(c.post.channel_id) });
    } else if (existing) {
      if (existing.pending_events.length > 0) relayed.push({ post: existing });
      results.push({ post: existing, created: false });
    } else {
      // A duplicate whose post is gone again: not found, as createPostFromCommand answers it.
      results.push({ refused: c instanceof Refusal ? c.error : Errors.postNotFound() });
    }
  });
  if (relayed.length > 0) void deps.relayAll(relayed);
  return results;
}

/** Each command checked as createPostFromCommand checks it, in its order, with the segment's reads shared. */
async function checkAll(deps: Deps, payloads: readonly CreatePostCommandPayload[]): Promise<(Valid | Refusal)[]> {
  const channelIds = [...new Set(payloads.map((p) => p.post.channel_id))];
  const channels = new Map(await Promise.all(channelIds.map(async (id) => [id, await deps.cachedChannels.cached(id)] as const)));
  const targets = payloads.map((payload) => attempt(() => checkCommandTarget(channels.get(payload.post.channel_id), payload.post)));
  const userIds = [...new Set(payloads.filter((_, at) => !(targets[at] instanceof Refusal)).map((p) => p.post.user_id))];
  const authors = new Map<string, InternalUser>((userIds.length > 0 ? await deps.users.usersByIds(userIds) : []).map((user) => [user.id, user]));
  const built = payloads.map((payload, at): Valid | Refusal => {
    const channel = targets[at] as Channel | Refusal;
    if (channel instanceof Refusal) return channel;
    return attempt(() => ({ post: commandPost(payload, channel, authors.get(payload.post.user_id), deps.clock), channel }));
  });
  const rootIds = [...new Set(built.flatMap((b) => (!(b instanceof Refusal) && b.post.root_id !== '' && isValidId(b.post.root_id) ? [b.post.root_id] : [])))];
  const roots = new Map((rootIds.length > 0 ? await deps.posts.findByIds(rootIds) : []).map((root) => [root.id, root]));
  return built.map((b) => {
    if (b instanceof Refusal || b.post.root_id === '') return b;
    return attempt(() => {
      checkReplyRootOf(roots.get(b.post.root_id), b.channel.id);
      return b;
    });
  });
}

/** The check's value, or the refusal it threw (anything else is rethrown: it fails the batch). */
function attempt<T>(check: () => T): T | Refusal {
  try {
    return check();
  } catch (error) {
    if (isRefusal(error)) return new Refusal(error);
    throw error;
  }
}

/** One counter write per channel for the new posts (not waited for, as the single path; marked handled). */
function countOnChannels(deps: Pick<Deps, 'channels'>, posts: readonly StoredPost[]): Map<string, Promise<void>> {
  const counts = new Map<string, PostCounts>();
  for (const post of posts) {
    const root = post.root_id === '';
    const before = counts.get(post.channel_id) ?? { posts: 0, roots: 0, lastPostAt: 0, lastRootPostAt: 0 };
    counts.set(post.channel_id, {
      posts: before.posts + 1,
      roots: before.roots + (root ? 1 : 0),
      lastPostAt: Math.max(before.lastPostAt, post.create_at),
      lastRootPostAt: root ? Math.max(before.lastRootPostAt, post.create_at) : before.lastRootPostAt,
    });
  }
  const written = new Map<string, Promise<void>>();
  for (const [channelId, c] of counts) {
    const done = deps.channels.recordPosts(channelId, c);
    done.catch(() => undefined);
    written.set(channelId, done);
  }
  return written;
}
