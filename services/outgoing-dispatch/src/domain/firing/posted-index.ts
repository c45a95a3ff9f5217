import type { OutgoingHook } from '../entities';
import { matchHook, TRIGGER_STARTS_WITH } from '../hooks/hook-rules';

/** A team's `posted` hooks by what can make them fire: their channel, an exact first word, a prefix of it. */
interface PostedIndex {
  readonly byChannel: Map<string, OutgoingHook[]>;
  readonly exact: Map<string, OutgoingHook[]>;
  readonly prefix: Map<string, OutgoingHook[]>;
  /** The lengths of the prefix words (only those prefixes of a first word are looked up). */
  readonly prefixLengths: readonly number[];
  /** Each hook's place in the team list (matches keep the list's order, oldest first). */
  readonly position: Map<OutgoingHook, number>;
}

/** Built once per cached hook list (the list is replaced, never changed, when a hook changes). */
const indexes = new WeakMap<readonly OutgoingHook[], PostedIndex>();

function push(map: Map<string, OutgoingHook[]>, key: string, hook: OutgoingHook): void {
  const list = map.get(key);
  if (list) list.push(hook);
  else map.set(key, [hook]);
}

function build(hooks: readonly OutgoingHook[]): PostedIndex {
  const index: PostedIndex = { byChannel: new Map(), exact: new Map(), prefix: new Map(), prefixLengths: [], position: new Map() };
  const lengths = new Set<number>();
  for (const [i, hook] of hooks.entries()) {
    index.position.set(hook, i);
    if (hook.disabledAt !== 0 || hook.botUserId !== '') continue;
    if (hook.channelId !== '') {
      push(index.byChannel, hook.channelId, hook);
      continue;
    }
    for (const word of hook.triggerWords) {
      if (hook.triggerWhen === TRIGGER_STARTS_WITH) {
        push(index.prefix, word, hook);
        lengths.add(word.length);
      } else {
        push(index.exact, word, hook);
      }
    }
  }
  return { ...index, prefixLengths: [...lengths].sort((a, b) => a - b) };
}

/**
 * The legacy (non-bot, enabled) hooks of `hooks` that fire for a post in `channelId` starting with
 * `firstWord`, with their trigger words: an index lookup, so hooks that cannot match are never looked at.
 */
export function matchingPostedHooks(hooks: readonly OutgoingHook[], channelId: string, firstWord: string): { hook: OutgoingHook; triggerWord: string }[] {
  let index = indexes.get(hooks);
  if (!index) {
    index = build(hooks);
    indexes.set(hooks, index);
  }
  const candidates = new Set<OutgoingHook>(index.byChannel.get(channelId) ?? []);
  if (firstWord !== '') {
    for (const hook of index.exact.get(firstWord) ?? []) candidates.add(hook);
    for (const length of index.prefixLengths) {
      if (length > firstWord.length) break;
      for (const hook of index.prefix.get(firstWord.slice(0, length)) ?? []) candidates.add(hook);
    }
  }
  const matches: { hook: OutgoingHook; triggerWord: string }[] = [];
  if (candidates.size === 0) return matches;
  const position = index.position;
  for (const hook of [...candidates].sort((a, b) => (position.get(a) ?? 0) - (position.get(b) ?? 0))) {
    const match = matchHook(hook, channelId, firstWord);
    if (match) matches.push({ hook, triggerWord: match.triggerWord });
  }
  return matches;
}
