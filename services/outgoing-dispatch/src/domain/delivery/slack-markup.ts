/** The Slack markup translation of webhook text and attachments (mattermost-wire.md §9, without `<@id>`). */
const TEXT_LINK = /<([^\n<|>]+)\|([^|\n>]+)>/g;
const ATTACHMENT_LINK = /<([^<|]+)\|([^>]+)>/g;

function mentions(text: string): string {
  return text.replaceAll('<!channel>', '@channel').replaceAll('<!here>', '@here').replaceAll('<!all>', '@all');
}

export function slackText(text: string): string {
  return mentions(text).replace(TEXT_LINK, (_m, url: string, label: string) => `[${label}](${url})`);
}

function attachmentText(text: unknown): unknown {
  return typeof text === 'string' ? mentions(text).replace(ATTACHMENT_LINK, (_m, url: string, label: string) => `[${label}](${url})`) : text;
}

/** Attachments with links and mentions translated; nil attachments and fields dropped; field values stringified. */
export function slackAttachments(attachments: readonly unknown[]): Record<string, unknown>[] {
  return attachments
    .filter((a): a is Record<string, unknown> => a !== null && typeof a === 'object' && !Array.isArray(a))
    .map((a) => {
      const out: Record<string, unknown> = { ...a, pretext: attachmentText(a.pretext), text: attachmentText(a.text) };
      if (typeof a.title === 'string') out.title = mentions(a.title);
      if (Array.isArray(a.fields)) {
        out.fields = a.fields
          .filter((f): f is Record<string, unknown> => f !== null && typeof f === 'object')
          .map((f) => {
            const value = f.value;
            const shown = typeof value === 'string' ? attachmentText(value) : value === undefined || value === null ? value : String(value as string | number | boolean);
            return { ...f, value: shown };
          });
      }
      if (out.pretext === undefined) delete out.pretext;
      if (out.text === undefined) delete out.text;
      return out;
    });
}
