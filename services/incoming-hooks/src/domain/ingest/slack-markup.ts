/**
 * Slack markup → Mattermost Markdown, as the reference's `ProcessSlackText`, `ProcessSlackAttachments`
 * and `ParseSlackLinksToMarkdown` do it.
 */
const ANNOUNCEMENTS: ReadonlyArray<readonly [string, string]> = [
  ['<!channel>', '@channel'],
  ['<!here>', '@here'],
  ['<!all>', '@all'],
];
const USER_MENTION = /<@([a-zA-Z0-9]+)>/g;
const TEXT_LINK = /<([^\n<|>]+)\|([^|\n>]+)>/g;
const ATTACHMENT_LINK = /<([^<|]+)\|([^>]+)>/g;

export type UsernameLookup = (ids: readonly string[]) => Promise<ReadonlyMap<string, string>>;

export function expandAnnouncements(text: string): string {
  let out = text;
  for (const [from, to] of ANNOUNCEMENTS) out = out.split(from).join(to);
  return out;
}

/** Every `<@ID>` of the texts (to look the users up in one call). */
export function mentionedIds(texts: readonly string[]): string[] {
  const ids = new Set<string>();
  for (const text of texts) for (const match of text.matchAll(USER_MENTION)) if (match[1] !== undefined) ids.add(match[1]);
  return [...ids];
}

/** `<@ID>` → `@username` for the ids that exist; unknown ids stay as they are. */
export function replaceUserIds(text: string, usernames: ReadonlyMap<string, string>): string {
  if (usernames.size === 0 || !text.includes('<@')) return text;
  return text.replace(USER_MENTION, (whole, id: string) => {
    const username = usernames.get(id);
    return username === undefined ? whole : `@${username}`;
  });
}

export function processSlackText(text: string, usernames: ReadonlyMap<string, string>): string {
  return replaceUserIds(expandAnnouncements(text), usernames);
}

/** `<URL|label>` → `[label](URL)` in a post's text (labels and URLs cannot span lines). */
export function textLinksToMarkdown(text: string): string {
  return text.includes('<') ? text.replace(TEXT_LINK, '[$2]($1)') : text;
}

/** The looser link rule used inside attachments. */
export function attachmentLinksToMarkdown(text: string): string {
  return text.includes('<') ? text.replace(ATTACHMENT_LINK, '[$2]($1)') : text;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Go's `%v` of a JSON value. */
export function goString(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** Texts of the attachments that may hold `<@ID>` (pretext, text, title, string field values). */
export function attachmentTexts(attachments: readonly unknown[]): string[] {
  const texts: string[] = [];
  for (const attachment of attachments) {
    if (!isObject(attachment)) continue;
    for (const key of ['pretext', 'text', 'title']) if (typeof attachment[key] === 'string') texts.push(attachment[key]);
    if (Array.isArray(attachment.fields)) for (const field of attachment.fields) if (isObject(field) && typeof field.value === 'string') texts.push(field.value);
  }
  return texts;
}

/**
 * Drops null attachments and fields, translates markup in pretext/text/title/field values (links in
 * text, pretext and string values only) and stringifies field values. Everything else is kept as sent.
 */
export function processAttachments(attachments: readonly unknown[], usernames: ReadonlyMap<string, string>): Json[] {
  const out: Json[] = [];
  for (const attachment of attachments) {
    if (!isObject(attachment)) continue;
    const next: Json = { ...attachment };
    for (const key of ['pretext', 'text', 'title']) {
      const value = next[key];
      if (typeof value === 'string') next[key] = processSlackText(value, usernames);
    }
    for (const key of ['pretext', 'text']) {
      const value = next[key];
      if (typeof value === 'string') next[key] = attachmentLinksToMarkdown(value);
    }
    if (Array.isArray(attachment.fields)) {
      next.fields = attachment.fields.filter(isObject).map((field) => {
        const copy: Json = { ...field };
        if (typeof field.value === 'string') copy.value = attachmentLinksToMarkdown(processSlackText(field.value, usernames));
        else if (field.value !== undefined && field.value !== null) copy.value = goString(field.value);
        return copy;
      });
    }
    out.push(next);
  }
  return out;
}
