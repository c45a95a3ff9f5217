import { validate } from '@switchyard/validation';
import { createPostBody } from './posts.schemas';

/** `POST /api/v4/posts`, as `createPostBody` gives it. */
export interface CreatePostBody {
  channel_id: string;
  message: string;
  type: string;
  props: Record<string, unknown> | null;
  root_id: string;
  file_ids: string[] | null;
  pending_post_id: string;
  create_at?: number;
  metadata?: { priority?: Record<string, unknown> } | null;
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A string of at most `max` UTF-16 units (joi's `string().allow('').max(max)`), '' when absent; undefined when not. */
function text(value: unknown, max: number): string | undefined {
  if (value === undefined) return '';
  return typeof value === 'string' && value.length <= max ? value : undefined;
}

/** joi's `array().items(string().max(64)).max(100)`: no empty string, nothing else. */
function isFileIdList(value: unknown): value is string[] {
  if (!Array.isArray(value) || value.length > 100) return false;
  for (const item of value) if (typeof item !== 'string' || item === '' || item.length > 64) return false;
  return true;
}

/**
 * The common body of a create (known keys of the right simple types, no metadata) checked without joi,
 * which costs more CPU than the rest of the route's own work; undefined for anything else, which
 * `createPostBody` then judges (and names the failing key). For every body this accepts, joi accepts it
 * too and gives the same value (create-post-body.test.ts compares them).
 */
export function plainCreatePostBody(body: unknown): CreatePostBody | undefined {
  if (!isObject(body) || body.metadata !== undefined) return undefined;
  const channelId = text(body.channel_id, 256);
  const message = text(body.message, Number.POSITIVE_INFINITY);
  const type = text(body.type, 200);
  const rootId = text(body.root_id, 64);
  const pendingPostId = text(body.pending_post_id, 100);
  if (channelId === undefined || message === undefined || type === undefined || rootId === undefined || pendingPostId === undefined) return undefined;
  // null takes the default as well, as joi gives it (allow(null).default(...)).
  const props = body.props === undefined || body.props === null ? {} : body.props;
  if (!isObject(props)) return undefined;
  const fileIds = body.file_ids === undefined || body.file_ids === null ? [] : body.file_ids;
  if (!isFileIdList(fileIds)) return undefined;
  const createAt = body.create_at;
  if (createAt !== undefined && !(typeof createAt === 'number' && Number.isSafeInteger(createAt) && createAt >= 0)) return undefined;
  return {
    channel_id: channelId,
    message,
    type,
    props,
    root_id: rootId,
    file_ids: fileIds,
    pending_post_id: pendingPostId,
    ...(createAt !== undefined ? { create_at: createAt } : {}),
  };
}

/** The create body: the plain form without joi, anything else through `createPostBody` (400 naming the key). */
export function createPostBodyOf(body: unknown): CreatePostBody {
  return plainCreatePostBody(body) ?? (validate(createPostBody, body) as CreatePostBody);
}
