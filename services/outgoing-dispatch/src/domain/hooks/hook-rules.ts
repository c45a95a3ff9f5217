import { isValidId } from '@switchyard/ids';
import type { OutgoingHook } from '../entities';
import { hookErrors } from '../errors';

/** Go's `len(fmt.Sprintf("%s", list))`: `[a b c]` in bytes. */
function goListLength(list: readonly string[]): number {
  return Buffer.byteLength(`[${list.join(' ')}]`);
}

const bytes = (value: string): number => Buffer.byteLength(value);

/** As Go's IsValidHTTPURL: http(s) scheme and a host. */
export function isValidHttpUrl(value: string): boolean {
  if (!/^https?:\/\//i.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** `OutgoingWebhook.IsValid` (mattermost-wire.md §10), first failure wins, in the reference's order. */
export function assertValidHook(hook: OutgoingHook): void {
  if (!isValidId(hook.id)) throw hookErrors.invalid('id');
  if (hook.token.length !== 26) throw hookErrors.invalid('token');
  if (hook.createAt === 0) throw hookErrors.invalid('create_at');
  if (hook.updateAt === 0) throw hookErrors.invalid('update_at');
  if (!isValidId(hook.creatorId)) throw hookErrors.invalid('user_id');
  if (hook.channelId !== '' && !isValidId(hook.channelId)) throw hookErrors.invalid('channel_id');
  if (!isValidId(hook.teamId)) throw hookErrors.invalid('team_id');
  if (goListLength(hook.triggerWords) > 1024) throw hookErrors.invalid('words');
  if (hook.triggerWords.some((w) => w.length === 0)) throw hookErrors.invalid('trigger_words');
  if (hook.callbackUrls.length === 0 || goListLength(hook.callbackUrls) > 1024) throw hookErrors.invalid('callback');
  if (hook.callbackUrls.some((u) => !isValidHttpUrl(u))) throw hookErrors.invalid('url');
  if (bytes(hook.displayName) > 64) throw hookErrors.invalid('display_name');
  if (bytes(hook.description) > 500) throw hookErrors.invalid('description');
  if (bytes(hook.contentType) > 128) throw hookErrors.invalid('content_type');
  // The reference reports trigger_when > 1 with the content_type id (a bug clients may see).
  if (hook.triggerWhen > 1 || hook.triggerWhen < 0) throw hookErrors.invalid('content_type');
  if (bytes(hook.username) > 64) throw hookErrors.invalid('username');
  if (bytes(hook.iconUrl) > 1024) throw hookErrors.invalid('icon_url');
}

/** Another hook in the same channel sharing a callback URL and a trigger word (the reference's intersect rule). */
export function intersects(hook: Pick<OutgoingHook, 'id' | 'channelId' | 'callbackUrls' | 'triggerWords'>, others: readonly OutgoingHook[]): boolean {
  return others.some(
    (other) =>
      other.id !== hook.id &&
      other.deleteAt === 0 &&
      other.channelId === hook.channelId &&
      other.callbackUrls.some((u) => hook.callbackUrls.includes(u)) &&
      other.triggerWords.some((w) => hook.triggerWords.includes(w)),
  );
}

export const TRIGGER_EXACT = 0;
export const TRIGGER_STARTS_WITH = 1;

/**
 * Whether the hook fires for a post in `channelId` whose message starts with `firstWord`, and with which
 * `trigger_word` (channel-scoped hooks without words fire on everything with `""`). Case-sensitive.
 */
export function matchHook(hook: Pick<OutgoingHook, 'channelId' | 'triggerWords' | 'triggerWhen'>, channelId: string, firstWord: string): { triggerWord: string } | undefined {
  if (hook.channelId !== '' && hook.channelId !== channelId) return undefined;
  if (hook.channelId === channelId && hook.triggerWords.length === 0) return { triggerWord: '' };
  if (firstWord === '') return undefined;
  if (hook.triggerWhen === TRIGGER_EXACT) {
    const word = hook.triggerWords.find((w) => w === firstWord);
    return word === undefined ? undefined : { triggerWord: word };
  }
  if (hook.triggerWhen === TRIGGER_STARTS_WITH) {
    const word = hook.triggerWords.find((w) => firstWord.startsWith(w));
    return word === undefined ? undefined : { triggerWord: word };
  }
  return undefined;
}

/** The first whitespace-separated word (Go's strings.Fields). */
export function firstWordOf(message: string): string {
  return message.trim().split(/\s+/)[0] ?? '';
}
