import { createPostCommandPayloadSchema, envelopeSchema, Topics, type CreatePostCommandPayload, type PostRefusedEvent } from '@switchyard/contracts';
import { isAppError, type AppError } from '@switchyard/errors';
import type { BatchHandler, BusMessage, EventBus, MessageHandler, Subscription } from '@switchyard/event-bus';
import type { Logger } from '@switchyard/logger';
import { traceCarrierOf, type TraceCarrier } from '@switchyard/telemetry';
import { createPostFromCommand } from '../../domain/posts/create-post-from-command.usecase';
import { createPostsFromCommands, isRefused } from '../../domain/posts/create-posts-from-commands.usecase';
import { plainPostCreateCommand } from './plain-post-command';
import type { Deps } from '../../domain/ports';
import { discardUnattachedFiles } from '../../domain/files/discard-files';
import type { FilesDeps } from '../../domain/files/files-deps';

/** The consumers' deps: posts' own, and the file store when at hand (refused commands' files are dropped). */
type CommandDeps = Deps & { readonly fileStore?: FilesDeps['fileStore'] };

/** A refused command's files (an incoming hook's uploads) go too: no post will ever take them, whatever the ack mode. */
async function dropFilesOf(deps: CommandDeps, command: CreatePostCommandPayload, logger: Logger): Promise<void> {
  const ids = command.post.file_ids ?? [];
  if (ids.length === 0) return;
  await discardUnattachedFiles(deps, command.post.user_id, ids).catch((error: unknown) => logger.warn('posts.commands: files of a refused post not discarded', { post_id: command.post.id, error }));
}

export const POSTS_COMMANDS_GROUP = 'posts.commands-consumer';

/**
 * posts.commands → `post.create`. Invalid commands (bad envelope or payload, unknown or archived
 * channel, invalid post) are logged and skipped, never retried into a crash loop; infrastructure
 * failures throw so the bus redelivers (the use case is idempotent by post id). A refused post is
 * announced as `post.refused` on posts.events, so a producer waiting for the post answers the error.
 */
export function postCreateHandler(deps: CommandDeps, logger: Logger): MessageHandler {
  return async (message: BusMessage): Promise<void> => {
    const command = plainPostCreateCommand(message.value) ?? validCommand(message, logger);
    if (!command) return;
    try {
      const outcome = await createPostFromCommand(deps, command);
      outcome.counted?.catch((error: unknown) => logger.warn('posts.commands: channel counters not updated for a created post', { post_id: command.post.id, channel_id: command.post.channel_id, error }));
      logger.debug('posts.commands: post.create handled', { post_id: outcome.post.id, created: outcome.created, hook_id: command.hook_id, request_id: command.request_id });
    } catch (error) {
      if (isAppError(error) && error.statusCode < 500) {
        logger.warn('posts.commands: post.create refused and skipped', { post_id: command.post.id, channel_id: command.post.channel_id, error_id: error.id, hook_id: command.hook_id });
        await dropFilesOf(deps, command, logger);
        await deps.events.publish(Topics.postsEvents, [{ key: command.post.channel_id, value: refusedEvent(command, error, deps.clock.now()) }]);
        return;
      }
      throw error;
    }
  };
}

/**
 * posts.commands → `post.create`, a partition's consecutive messages at once (the bus's batch handler):
 * invalid messages are logged and skipped, the commands go to createPostsFromCommands together (one insert,
 * one relay hand-over, one counter write per channel), and the refused ones are announced in one publish.
 * Each new post's post.created continues its own message's trace, not the batch's.
 * It throws only for infrastructure failures: the bus then handles the same messages again one at a time
 * through postCreateHandler (idempotent by post id), with its usual retries. Subscribed beside it.
 */
export function postCreateBatchHandler(deps: CommandDeps, logger: Logger): BatchHandler {
  return async (messages: readonly BusMessage[]): Promise<void> => {
    const commands: CreatePostCommandPayload[] = [];
    const traces: (TraceCarrier | undefined)[] = [];
    for (const message of messages) {
      const command = plainPostCreateCommand(message.value) ?? validCommand(message, logger);
      if (!command) continue;
      commands.push(command);
      traces.push(traceCarrierOf(message.headers));
    }
    if (commands.length === 0) return;
    const results = await createPostsFromCommands(deps, commands, traces);
    const refused: { key: string; value: PostRefusedEvent }[] = [];
    const dropped: CreatePostCommandPayload[] = [];
    const counting = new Map<Promise<void>, string>();
    results.forEach((result, at) => {
      const command = commands[at] as CreatePostCommandPayload;
      if (isRefused(result)) {
        const error = result.refused;
        logger.warn('posts.commands: post.create refused and skipped', { post_id: command.post.id, channel_id: command.post.channel_id, error_id: error.id, hook_id: command.hook_id });
        refused.push({ key: command.post.channel_id, value: refusedEvent(command, error, deps.clock.now()) });
        dropped.push(command);
        return;
      }
      if (result.counted) counting.set(result.counted, command.post.channel_id);
      logger.debug('posts.commands: post.create handled', { post_id: result.post.id, created: result.created, hook_id: command.hook_id, request_id: command.request_id });
    });
    for (const [counted, channelId] of counting) counted.catch((error: unknown) => logger.warn('posts.commands: channel counters not updated for created posts', { channel_id: channelId, error }));
    for (const command of dropped) await dropFilesOf(deps, command, logger);
    if (refused.length > 0) await deps.events.publish(Topics.postsEvents, refused);
  };
}

/** The command through the contract's joi schemas (anything the plain check did not take); undefined, logged, when invalid. */
function validCommand(message: BusMessage, logger: Logger): CreatePostCommandPayload | undefined {
  const envelope = envelopeSchema.validate(message.value, { allowUnknown: true });
  if (envelope.error) {
    logger.warn('posts.commands: invalid envelope skipped', { reason: envelope.error.message, offset: message.offset });
    return;
  }
  const value = envelope.value as { id: string; type: string; payload: unknown };
  if (value.type !== 'post.create') {
    logger.warn('posts.commands: unknown command type skipped', { type: value.type, envelope_id: value.id });
    return;
  }
  const payload = createPostCommandPayloadSchema.validate(value.payload, { convert: false });
  if (payload.error) {
    logger.warn('posts.commands: invalid post.create skipped', { reason: payload.error.message, envelope_id: value.id });
    return;
  }
  return payload.value as CreatePostCommandPayload;
}

function refusedEvent(command: CreatePostCommandPayload, error: AppError, time: number): PostRefusedEvent {
  const payload = {
    post_id: command.post.id,
    channel_id: command.post.channel_id,
    source: command.source,
    error: { id: error.id, message: error.message, detailed_error: error.detailedError, status_code: error.statusCode },
  };
  return { id: `${command.post.id}:refused`, type: 'post.refused', version: 1, time, payload };
}

export function subscribePostCommands(bus: EventBus, deps: CommandDeps, logger: Logger): Promise<Subscription> {
  return bus.subscribe({ groupId: POSTS_COMMANDS_GROUP, topics: [Topics.postsCommands], handler: postCreateHandler(deps, logger), batchHandler: postCreateBatchHandler(deps, logger) });
}
