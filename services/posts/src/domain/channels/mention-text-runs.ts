import { mentionTexts, type MentionSource } from '@switchyard/contracts';
import type { Marked, Token } from 'marked' with { 'resolution-mode': 'import' };

/**
 * Only these can make a text's Markdown differ from its plain reading for mentions: code spans and fences (`` ` ``,
 * `~~~`), links, images and reference definitions (`[`), character references (`&`), escapes (`\`) and indented code
 * (a line starting with four spaces or a tab). Any other text is read as one run without parsing (the common case).
 */
const MAY_HIDE_MENTIONS = /[`[&\\]|~~~|^(?: {4}|\t)/m;

/**
 * The reference's Markdown (server/public/shared/markdown) has no emphasis, strikethrough or HTML: `*`, `_`, `~` and
 * tags are plain text there, so the parser is told to read them as text too.
 */
let parser: Promise<Marked> | undefined;
function markdownParser(): Promise<Marked> {
  parser ??= import('marked').then(({ Marked }) => new Marked({
    gfm: true,
    tokenizer: { emStrong: () => undefined, del: () => undefined, html: () => undefined, tag: () => undefined },
  }));
  return parser;
}

/** Nodes whose content is never read for mentions: code and definitions. */
const SKIPPED = new Set(['code', 'codespan', 'def', 'html', 'hr', 'space', 'br']);

/** Walks the tokens as the reference's markdown.Inspect: adjacent text joins one run; any other node ends it. */
function collectRuns(tokens: readonly Token[], runs: string[], buf: { text: string }): void {
  const flush = () => {
    if (buf.text !== '') runs.push(buf.text);
    buf.text = '';
  };
  for (const token of tokens) {
    if ((token.type === 'text' || token.type === 'escape') && !('tokens' in token && token.tokens)) {
      buf.text += token.text;
      continue;
    }
    flush();
    if (SKIPPED.has(token.type)) continue;
    if (token.type === 'list') collectRuns(token.items as Token[], runs, buf);
    else if (token.type === 'table') {
      for (const cell of [...token.header, ...token.rows.flat()] as { tokens: Token[] }[]) {
        collectRuns(cell.tokens, runs, buf);
        flush();
      }
    } else if ('tokens' in token && token.tokens) collectRuns(token.tokens, runs, buf);
    flush();
  }
}

/** The text runs of one Markdown text where a mention counts. */
export async function markdownTextRuns(text: string): Promise<string[]> {
  if (!MAY_HIDE_MENTIONS.test(text)) return text === '' ? [] : [text];
  const runs: string[] = [];
  const buf = { text: '' };
  collectRuns((await markdownParser()).lexer(text), runs, buf);
  if (buf.text !== '') runs.push(buf.text);
  return runs;
}

/**
 * Where a post's mentions are read (the reference's getExplicitMentions): the Markdown text of its message and
 * attachments (mentionTexts), Text nodes only, adjacent ones joined: never inside code spans, fenced or indented code
 * blocks, link destinations or reference definitions.
 */
export async function mentionTextRuns(post: MentionSource): Promise<string[]> {
  const runs: string[] = [];
  for (const text of mentionTexts(post)) runs.push(...(await markdownTextRuns(text)));
  return runs;
}
