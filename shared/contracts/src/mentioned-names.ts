/**
 * The `@name` tokens of a message, lower-cased; a token ending in dots, dashes or underscores also counts
 * without them, as the reference does (`@alice.` mentions alice). posts reads them from a post's Markdown text runs
 * (code and link destinations left out); realtime's fallback for a `post.created` without `mentions` from the raw text.
 */
export function mentionedNames(message: string): Set<string> {
  const names = new Set<string>();
  for (const match of message.matchAll(/@([a-z0-9._-]+)/gi)) {
    const raw = (match[1] ?? '').toLowerCase();
    names.add(raw);
    const trimmed = raw.replace(/[._-]+$/, '');
    if (trimmed !== raw && trimmed !== '') names.add(trimmed);
  }
  return names;
}

/** Attachments (and fields of one attachment) read for mentions at most: bounded work per post. */
const MAX_ATTACHMENTS = 100;

/** What mentions are read from: a post's message and props (its attachments). */
export interface MentionSource {
  readonly message: string;
  readonly props?: Readonly<Record<string, unknown>> | null;
}

/**
 * The texts where a mention counts (the reference's getMentionsEnabledFields): the message, then each
 * attachment's pretext, text and string field values.
 */
export function mentionTexts(post: MentionSource): string[] {
  const texts = [post.message];
  const attachments = post.props?.attachments;
  if (!Array.isArray(attachments)) return texts;
  for (const attachment of attachments.slice(0, MAX_ATTACHMENTS)) {
    if (typeof attachment !== 'object' || attachment === null) continue;
    const { pretext, text, fields } = attachment as { pretext?: unknown; text?: unknown; fields?: unknown };
    if (typeof pretext === 'string' && pretext !== '') texts.push(pretext);
    if (typeof text === 'string' && text !== '') texts.push(text);
    if (!Array.isArray(fields)) continue;
    for (const field of fields.slice(0, MAX_ATTACHMENTS)) {
      const value = typeof field === 'object' && field !== null ? (field as { value?: unknown }).value : undefined;
      if (typeof value === 'string' && value !== '') texts.push(value);
    }
  }
  return texts;
}

/** The `@name` tokens of all of a post's mention texts (mentionTexts). */
export function postMentionedNames(post: MentionSource): Set<string> {
  const names = new Set<string>();
  for (const text of mentionTexts(post)) for (const name of mentionedNames(text)) names.add(name);
  return names;
}
