import type { UserMentionSettings } from '@switchyard/contracts';

/**
 * Keyword → the users it mentions: mention keys lower-cased (a word matches them in any case) and first names as written (a
 * word matches them only in the same case), as the reference's MentionKeywords.AddUser builds them. `@username`s and the
 * channel-wide words are not here: they are read from the post's `@names` (mentioned-names.ts).
 */
export type MentionKeywords = ReadonlyMap<string, readonly string[]>;

export function keywordsOf(settings: ReadonlyMap<string, UserMentionSettings>): MentionKeywords {
  const keywords = new Map<string, string[]>();
  const add = (keyword: string, userId: string) => {
    const ids = keywords.get(keyword);
    if (!ids) keywords.set(keyword, [userId]);
    else if (!ids.includes(userId)) ids.push(userId);
  };
  for (const [userId, s] of settings) {
    for (const key of s.mention_keys) if (key !== '') add(key.toLowerCase(), userId);
    if (s.first_name !== '') add(s.first_name, userId);
  }
  return keywords;
}

/** Splits where a character can be part of neither a mention nor an emoji name (the reference's ProcessText). */
const SEPARATORS = /[^\p{L}\p{N}:.\-_@]+/u;
const SENTENCE_END = /[.\-:_]$/;
const SYSTEM_MENTIONS = new Set(['@here', '@channel', '@all']);
const NON_ASCII = /[^\p{ASCII}]/u;

/**
 * The users whose keywords the texts contain, read word by word as the reference's StandardMentionParser.ProcessText: words
 * split at whitespace and punctuation other than `: . - _ @`; `:emoji:` words skipped; leading `: . - _` dropped; a word
 * matches a keyword lower-cased (mention keys) or as written (first names), else without its trailing `. - : _` one at a
 * time, else (unless it starts with `@`) each of its parts between `. - :`; a word with non-ASCII letters also matches a
 * non-ASCII keyword it contains.
 */
export function keywordMentions(texts: readonly string[], keywords: MentionKeywords): Set<string> {
  const out = new Set<string>();
  if (keywords.size === 0) return out;
  const multibyte = [...keywords.keys()].filter((k) => NON_ASCII.test(k));
  const check = (word: string): boolean => {
    const ids = keywords.get(word.toLowerCase()) ?? keywords.get(word);
    if (!ids) return false;
    for (const id of ids) out.add(id);
    return true;
  };
  for (const text of texts) {
    for (const raw of text.split(SEPARATORS)) {
      if (raw === '' || (raw.startsWith(':') && raw.endsWith(':'))) continue;
      const word = raw.replace(/^[:.\-_]+/, '');
      if (word === '' || check(word)) continue;
      let trimmed = word;
      let found = false;
      while (!found && trimmed !== '' && SENTENCE_END.test(trimmed)) {
        trimmed = trimmed.slice(0, -1);
        found = trimmed !== '' && check(trimmed);
      }
      if (found) continue;
      if (word.startsWith('@') && !SYSTEM_MENTIONS.has(word.toLowerCase())) {
        // A possible @username: read from the post's @names, never split.
      } else if (/[.\-:]/.test(word)) {
        for (const part of word.split(/[.\-:]/)) if (part !== '') check(part);
      }
      if (multibyte.length > 0 && NON_ASCII.test(word)) {
        for (const key of multibyte) if (word.includes(key)) for (const id of keywords.get(key) ?? []) out.add(id);
      }
    }
  }
  return out;
}
