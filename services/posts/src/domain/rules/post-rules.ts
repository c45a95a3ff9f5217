import { commonErrors } from '@switchyard/errors';
import { Errors } from '../errors';
import { LEGACY_HOOK_KEY_PROP } from './hook-origin';

export const MAX_MESSAGE_RUNES = 16383;
export const MAX_PROPS_RUNES = 800000;
export const MAX_FILE_IDS_RUNES = 300;
export const PENDING_POST_WINDOW_MS = 30_000;

/** The reference's fixed post types (model/post.go); `system_*` and `custom_*` are checked by prefix. */
const FIXED_TYPES = new Set(['', 'slack_attachment', 'me', 'reminder', 'burn_on_read', 'card']);

export function runeLength(text: string): number {
  let n = 0;
  for (const _ of text) n += 1;
  return n;
}

export function checkMessage(message: string): void {
  const length = runeLength(message);
  if (length > MAX_MESSAGE_RUNES) throw Errors.postMessageLength(length, MAX_MESSAGE_RUNES);
}

export function checkProps(props: Readonly<Record<string, unknown>>): void {
  if (runeLength(JSON.stringify(props)) > MAX_PROPS_RUNES) throw Errors.postProps();
}

export function checkFileIds(fileIds: readonly string[]): void {
  if (runeLength(JSON.stringify(fileIds)) > MAX_FILE_IDS_RUNES) throw Errors.postFileIds();
}

/** Model rule: a known type, `system_*` or `custom_*`. */
export function checkTypeValid(type: string): void {
  if (FIXED_TYPES.has(type) || type.startsWith('system_') || type.startsWith('custom_')) return;
  throw Errors.postType();
}

/** API rule: clients never create `system_*` posts (400 invalid_param post.type). */
export function checkClientType(type: string): void {
  if (type.startsWith('system_')) throw commonErrors.invalidParam('post.type');
  checkTypeValid(type);
}

export function isSystemType(type: string): boolean {
  return type.startsWith('system_');
}

/** `#tags` of a message, space-joined, at most 1000 runes (the reference's ParseHashtags, simplified). */
export function hashtagsOf(message: string): string {
  const tags = new Set<string>();
  for (const match of message.matchAll(/(?:^|[\s(])(#[\p{L}\p{N}][\p{L}\p{N}_.-]*[\p{L}\p{N}])/gu)) {
    const tag = match[1];
    if (tag !== undefined && runeLength(tag) >= 3) tags.add(tag);
  }
  let out = '';
  for (const tag of tags) {
    const next = out === '' ? tag : `${out} ${tag}`;
    if (runeLength(next) > 1000) break;
    out = next;
  }
  return out;
}

/** Props a stored post keeps through any client edit: the author's bot mark and a legacy hook key (clients never see it). */
export function keepProtectedProps(stored: Readonly<Record<string, unknown>>, next: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out = { ...next };
  if (stored.from_bot === 'true') out.from_bot = 'true';
  else delete out.from_bot;
  if (LEGACY_HOOK_KEY_PROP in stored) out[LEGACY_HOOK_KEY_PROP] = stored[LEGACY_HOOK_KEY_PROP];
  else delete out[LEGACY_HOOK_KEY_PROP];
  return out;
}

/** Props an integration's update cannot change (PostsInternalPaths.updatePost). */
export const INTEGRATION_KEPT_PROPS = ['from_webhook', 'from_bot', 'override_username', 'override_icon_url', 'override_icon_emoji', 'webhook_display_name', LEGACY_HOOK_KEY_PROP] as const;

export function keepIntegrationProps(stored: Readonly<Record<string, unknown>>, next: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out = { ...next };
  for (const key of INTEGRATION_KEPT_PROPS) {
    if (key in stored) out[key] = stored[key];
    else delete out[key];
  }
  return out;
}
