import { STOP_WORDS } from './stop-words';
import { foldCase, wordsOf } from './search-text';

/**
 * The reference's post search syntax (mattermost-wire-3.md §2.2) turned into a structure the use case and
 * the index adapters share. Parsing is pure and bounded: at most MAX_TOKENS tokens of the terms are read.
 */
export interface SearchWord {
  /** Folded (lower case, no diacritics), letters and digits only. */
  readonly text: string;
  /** `word*`: any word starting with `text`. */
  readonly prefix: boolean;
}

export interface DateFilter {
  readonly on?: string;
  readonly after: readonly string[];
  readonly before: readonly string[];
  readonly notOn: readonly string[];
  readonly notAfter: readonly string[];
  readonly notBefore: readonly string[];
}

export interface ParsedSearch {
  /** Plain words (AND, or OR with is_or_search); stop words removed. */
  readonly words: readonly SearchWord[];
  /** `"two words"`: each phrase's words in order (stop words kept: a phrase is matched as written). */
  readonly phrases: readonly (readonly string[])[];
  readonly excludedWords: readonly SearchWord[];
  readonly excludedPhrases: readonly (readonly string[])[];
  /** `#tag`, folded, `#` included. */
  readonly hashtags: readonly string[];
  readonly excludedHashtags: readonly string[];
  readonly fromUsers: readonly string[];
  readonly excludedFromUsers: readonly string[];
  readonly inChannels: readonly string[];
  readonly excludedInChannels: readonly string[];
  readonly dates: DateFilter;
  /** Some text term was given (even one that turned out to be only stop words or punctuation). */
  readonly hadTextTerms: boolean;
}

/** Tokens read from the terms; the rest is ignored (bounded work for a 10,000-character query). */
export const MAX_TOKENS = 64;
/** Words kept per query (after the stop words are dropped). */
export const MAX_WORDS = 16;

const FILTERS = new Set(['from', 'in', 'channel', 'before', 'after', 'on', 'ext']);
const HASHTAG = /^#\p{L}[\p{L}\p{N}\-_.]*[\p{L}\p{N}]$/u;
/** Characters the reference turns into spaces inside terms. */
const SPLIT_CHARS = /[<>+\-()~@:]/g;
const LEADING_PUNCT = /^[^\p{L}\p{N}#"]+/u;
const TRAILING_PUNCT = /[^\p{L}\p{N}*"]+$/u;

/** Whitespace-separated tokens, a `"…"` span (with a `-` right before it) staying one token. */
export function tokenize(terms: string): string[] {
  const tokens: string[] = [];
  const re = /-?"[^"]*"|[^\s"]*"[^"\s]*|\S+/gu;
  for (const match of terms.matchAll(re)) {
    tokens.push(match[0]);
    if (tokens.length >= MAX_TOKENS) break;
  }
  return tokens;
}

export function parseSearch(terms: string): ParsedSearch {
  const tokens = tokenize(terms);
  const out = emptyShape();
  for (let i = 0; i < tokens.length; i += 1) {
    const token = tokens[i] as string;
    const filter = /^(-?)([A-Za-z]+):(.*)$/s.exec(token);
    if (filter && FILTERS.has((filter[2] as string).toLowerCase())) {
      let value = filter[3] as string;
      if (value === '' && i + 1 < tokens.length) {
        i += 1;
        value = tokens[i] as string;
      }
      addFilter(out, (filter[2] as string).toLowerCase(), filter[1] === '-', value);
      continue;
    }
    addTerm(out, token);
  }
  return out;
}

type Mutable = ReturnType<typeof emptyShape>;
function emptyShape() {
  return {
    words: [] as SearchWord[],
    phrases: [] as string[][],
    excludedWords: [] as SearchWord[],
    excludedPhrases: [] as string[][],
    hashtags: [] as string[],
    excludedHashtags: [] as string[],
    fromUsers: [] as string[],
    excludedFromUsers: [] as string[],
    inChannels: [] as string[],
    excludedInChannels: [] as string[],
    dates: { after: [] as string[], before: [] as string[], notOn: [] as string[], notAfter: [] as string[], notBefore: [] as string[] } as { on?: string; after: string[]; before: string[]; notOn: string[]; notAfter: string[]; notBefore: string[] },
    hadTextTerms: false,
  };
}

function addFilter(out: Mutable, name: string, negated: boolean, raw: string): void {
  const value = raw.replace(/^"|"$/g, '').trim();
  if (value === '') return;
  switch (name) {
    case 'from':
      (negated ? out.excludedFromUsers : out.fromUsers).push(value.replace(/^@/, '').toLowerCase());
      return;
    case 'in':
    case 'channel':
      (negated ? out.excludedInChannels : out.inChannels).push(value.toLowerCase());
      return;
    case 'on':
      if (negated) out.dates.notOn.push(value);
      else out.dates.on ??= value;
      return;
    case 'after':
      (negated ? out.dates.notAfter : out.dates.after).push(value);
      return;
    case 'before':
      (negated ? out.dates.notBefore : out.dates.before).push(value);
      return;
    default:
      return; // ext: file search only
  }
}

function addTerm(out: Mutable, token: string): void {
  let excluded = false;
  let text = token;
  if (text.startsWith('-')) {
    excluded = true;
    text = text.slice(1);
  }
  out.hadTextTerms = true;
  if (text.length >= 2 && text.startsWith('"') && text.endsWith('"')) {
    const words = wordsOf(text.slice(1, -1)).slice(0, MAX_WORDS);
    if (words.length === 0) return;
    if (words.length === 1 && !excluded) return addWords(out.words, words[0] as string, false);
    (excluded ? out.excludedPhrases : out.phrases).push(words);
    return;
  }
  text = text.replace(/"/g, '').replace(LEADING_PUNCT, '').replace(TRAILING_PUNCT, '');
  if (text.startsWith('##')) text = text.replace(/^#+/, '#');
  if (HASHTAG.test(text)) {
    (excluded ? out.excludedHashtags : out.hashtags).push(foldCase(text));
    return;
  }
  const prefix = text.endsWith('*');
  const pieces = text.replace(/\*+$/, '').replace(/\*/g, ' ').replace(SPLIT_CHARS, ' ').replace(/#/g, ' ');
  const words = wordsOf(pieces);
  words.forEach((word, index) => addWords(excluded ? out.excludedWords : out.words, word, prefix && index === words.length - 1));
}

function addWords(list: SearchWord[], word: string, prefix: boolean): void {
  if (!prefix && STOP_WORDS.has(word)) return;
  if (list.length >= MAX_WORDS) return;
  if (list.some((w) => w.text === word && w.prefix === prefix)) return;
  list.push({ text: word, prefix });
}

/** Nothing at all could match: text was given but every word was a stop word or punctuation, and no filter is left. */
export function searchesNothing(parsed: ParsedSearch): boolean {
  const positive = parsed.words.length + parsed.phrases.length + parsed.hashtags.length;
  const filters = parsed.fromUsers.length + parsed.inChannels.length + parsed.excludedFromUsers.length + parsed.excludedInChannels.length;
  const dates = parsed.dates.on !== undefined || parsed.dates.after.length + parsed.dates.before.length + parsed.dates.notOn.length + parsed.dates.notAfter.length + parsed.dates.notBefore.length > 0;
  const excluded = parsed.excludedWords.length + parsed.excludedPhrases.length + parsed.excludedHashtags.length;
  return positive === 0 && excluded === 0 && filters === 0 && !dates;
}
