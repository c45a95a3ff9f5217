import type { CreatePostCommandPayload } from '@switchyard/contracts';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const isCount = (value: unknown, min: number): value is number => typeof value === 'number' && Number.isSafeInteger(value) && value >= min;
const isText = (value: unknown, min: number, max = Number.POSITIVE_INFINITY): value is string => typeof value === 'string' && value.length >= min && value.length <= max;

const POST_KEYS = new Set(['id', 'channel_id', 'user_id', 'message', 'type', 'props', 'root_id', 'create_at', 'priority', 'file_ids']);
const SOURCES = new Set(['api', 'incoming_webhook', 'outgoing_webhook', 'action', 'system', 'command']);

/** The envelope as `envelopeSchema` (unknown keys allowed) accepts it. */
function isPlainEnvelope(value: unknown): value is { id: string; type: string; version: number; time: number; payload: unknown } {
  return isObject(value) && isText(value.id, 1, 64) && isText(value.type, 1, 128) && isCount(value.version, 1) && isCount(value.time, 0) && value.payload !== undefined;
}

/** The payload as `createPostCommandPayloadSchema` (no conversion) accepts it. */
function isPlainPayload(payload: unknown): payload is CreatePostCommandPayload {
  if (!isObject(payload) || !isObject(payload.post)) return false;
  const post = payload.post;
  for (const key of Object.keys(post)) if (!POST_KEYS.has(key)) return false;
  return (
    isText(post.id, 26, 26) &&
    isText(post.channel_id, 1) &&
    isText(post.user_id, 1) &&
    isText(post.message, 0) &&
    isText(post.type, 0) &&
    isObject(post.props) &&
    isText(post.root_id, 0) &&
    (post.create_at === undefined || isCount(post.create_at, 0)) &&
    (post.priority === undefined || isObject(post.priority)) &&
    (post.file_ids === undefined || (Array.isArray(post.file_ids) && post.file_ids.length <= 10 && post.file_ids.every((id) => isText(id, 26, 26)))) &&
    typeof payload.source === 'string' &&
    SOURCES.has(payload.source) &&
    (payload.hook_id === undefined || isText(payload.hook_id, 1)) &&
    (payload.request_id === undefined || isText(payload.request_id, 0))
  );
}

/**
 * A `post.create` command checked without joi, when it is well formed (what producers send); undefined
 * for anything else, which the consumer then judges with the contract's joi schemas (and logs why). For
 * every message this accepts, those schemas accept it too (plain-post-command.test.ts compares them).
 */
export function plainPostCreateCommand(value: unknown): CreatePostCommandPayload | undefined {
  if (!isPlainEnvelope(value) || value.type !== 'post.create') return undefined;
  return isPlainPayload(value.payload) ? value.payload : undefined;
}
