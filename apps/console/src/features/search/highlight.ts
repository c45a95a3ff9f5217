/** A message cut into plain and highlighted parts. */
export interface Part {
  readonly text: string;
  readonly mark: boolean;
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Marks every whole-word occurrence of the matched words (the server's `matches` for the post), any case.
 * Without words the text is one plain part.
 */
export function highlightParts(text: string, words: readonly string[]): Part[] {
  const wanted = [...new Set(words.filter((w) => w.trim() !== ''))].sort((a, b) => b.length - a.length);
  if (wanted.length === 0) return [{ text, mark: false }];
  const pattern = new RegExp(`(?<![\\p{L}\\p{N}])(${wanted.map(escapeRegex).join('|')})(?![\\p{L}\\p{N}])`, 'giu');
  const parts: Part[] = [];
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    const at = match.index ?? 0;
    if (at > last) parts.push({ text: text.slice(last, at), mark: false });
    parts.push({ text: match[0], mark: true });
    last = at + match[0].length;
  }
  if (last < text.length) parts.push({ text: text.slice(last), mark: false });
  return parts;
}
