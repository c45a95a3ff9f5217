import { commonErrors } from '@switchyard/errors';
import { newId } from '@switchyard/ids';

/** README decisions: named colours become hex; a footer over 300 characters is cut to 300 plus `…`. */
export const NAMED_COLOURS: Readonly<Record<string, string>> = { good: '#2eb67d', warning: '#daa038', danger: '#a30200' };
export const FOOTER_MAX_RUNES = 300;

const STRING_KEYS = ['fallback', 'color', 'pretext', 'author_name', 'author_link', 'author_icon', 'title', 'title_link', 'text', 'image_url', 'thumb_url', 'footer', 'footer_icon'] as const;

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const runes = (text: string): string[] => [...text];

/** A field value as the reference's webhook path stores it: always a string. */
export function stringifyFieldValue(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '';
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value);
}

function asString(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return '';
}

function normaliseField(field: unknown): Json {
  const f = isObject(field) ? field : {};
  const short = f.short === true || f.short === 'true';
  return { title: asString(f.title), value: stringifyFieldValue(f.value), short };
}

function normaliseAction(action: unknown): Json {
  const a = isObject(action) ? action : {};
  const out: Json = {};
  const id = typeof a.id === 'string' && a.id !== '' ? a.id : newId();
  out.id = id;
  for (const key of ['type', 'name', 'style', 'data_source', 'default_option', 'cookie', 'tooltip'] as const) {
    const value = asString(a[key]);
    if (value !== '') out[key] = value;
  }
  if (a.disabled === true) out.disabled = true;
  if (Array.isArray(a.options)) {
    out.options = a.options.filter(isObject).map((o) => ({ text: asString(o.text), value: asString(o.value) }));
  }
  if (isObject(a.integration)) {
    const integration: Json = { url: asString(a.integration.url) };
    if (isObject(a.integration.context)) integration.context = a.integration.context;
    out.integration = integration;
  }
  return out;
}

function normaliseAttachment(attachment: unknown, index: number): Json {
  if (!isObject(attachment)) throw commonErrors.invalidBodyParam(`props.attachments[${index}]`, 'an attachment must be an object');
  const out: Json = { id: typeof attachment.id === 'number' && Number.isInteger(attachment.id) ? attachment.id : 0 };
  for (const key of STRING_KEYS) out[key] = asString(attachment[key]);
  const colour = String(out.color);
  out.color = NAMED_COLOURS[colour] ?? colour;
  const footer = runes(String(out.footer));
  if (footer.length > FOOTER_MAX_RUNES) out.footer = `${footer.slice(0, FOOTER_MAX_RUNES).join('')}…`;
  out.fields = Array.isArray(attachment.fields) ? attachment.fields.map(normaliseField) : null;
  out.ts = typeof attachment.ts === 'string' || typeof attachment.ts === 'number' ? attachment.ts : null;
  if (Array.isArray(attachment.actions) && attachment.actions.length > 0) out.actions = attachment.actions.map(normaliseAction);
  return out;
}

/**
 * `props.attachments` as the reference stores it after its typed round-trip (every attachment key
 * written), with Switchyard's decisions applied: action ids generated, footer truncation, named colours,
 * field values stringified. Props without attachments come back unchanged; a non-array is a 400.
 */
export function normaliseAttachments(props: Readonly<Json>): Json {
  if (!('attachments' in props) || props.attachments === null || props.attachments === undefined) return { ...props };
  if (!Array.isArray(props.attachments)) throw commonErrors.invalidBodyParam('props.attachments', 'attachments must be an array');
  return { ...props, attachments: props.attachments.map(normaliseAttachment) };
}

/** The props a client may see (shared with realtime, which sends posts over the WebSocket). */
export { stripIntegrations } from '@switchyard/contracts';
