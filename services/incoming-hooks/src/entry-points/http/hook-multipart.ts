import { Errors } from '../../domain/errors';
import type { HookFile } from '../../domain/ports';
import { emptyRequest, type WebhookRequest } from '../../domain/ingest/webhook-request';
import type { HookForm } from './hook-form';

export type { FileLimits } from './hook-form';

export interface DecodedMultipart {
  readonly request: WebhookRequest | null;
  readonly files: readonly HookFile[];
}

/** Form field names (case-insensitive, as gorilla/schema) → request fields; the description's spellings too. */
const FORM_FIELDS: Readonly<Record<string, keyof WebhookRequest>> = {
  text: 'text',
  username: 'username',
  iconurl: 'icon_url',
  icon_url: 'icon_url',
  channelname: 'channel',
  channel: 'channel',
  type: 'type',
  iconemoji: 'icon_emoji',
  icon_emoji: 'icon_emoji',
  rootid: 'root_id',
  root_id: 'root_id',
};

/** The form's fields as request fields: a `files` field (no file name) or an unknown name is a 400. */
function requestFields(form: HookForm): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(form.fields)) {
    const lower = name.toLowerCase();
    if (lower === 'files') throw Errors.filePart('files', 'a files part needs a file name');
    const target = FORM_FIELDS[lower];
    if (!target) throw Errors.badContentType(`schema: invalid path "${name.slice(0, 100)}"`);
    out[target] ??= value;
  }
  return out;
}

/**
 * multipart/form-data (mattermost-wire.md §9): one field per parameter, or a `payload` field holding the
 * JSON body; and, as the extension, up to `maxFiles` parts named `files`, each with a file name, which the
 * hook's post carries. With files the JSON `payload` is the body (no other field).
 */
export function decodeMultipart(form: HookForm, decodeJson: (text: string) => WebhookRequest | null): DecodedMultipart {
  const fields = requestFields(form);
  const hasFields = Object.keys(fields).length > 0;
  if (form.files.length > 0) {
    if (form.payload === undefined || hasFields) throw Errors.filesNeedPayload();
    return { request: decodeJson(form.payload), files: form.files };
  }
  if (form.payload !== undefined && !hasFields) return { request: decodeJson(form.payload), files: [] };
  return { request: { ...emptyRequest, ...fields } as WebhookRequest, files: [] };
}

/**
 * The vendor body of a multipart request to a hook with a transform: the `payload` part (JSON), and its
 * files, which the transformed post carries. Other fields are refused (the transform reads one body).
 */
export function transformMultipart(form: HookForm): { readonly payload: string; readonly files: readonly HookFile[] } {
  if (Object.keys(requestFields(form)).length > 0 || (form.files.length > 0 && form.payload === undefined)) throw Errors.filesNeedPayload();
  return { payload: form.payload ?? '', files: form.files };
}
