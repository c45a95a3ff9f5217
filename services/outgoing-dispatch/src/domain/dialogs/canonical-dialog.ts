import type { Dialog, DialogElement, DialogOption } from './dialog-problems';

type Raw = Readonly<Record<string, unknown>> | null | undefined;

const str = (raw: Raw, key: string): string => (typeof raw?.[key] === 'string' ? raw[key] : '');
const int = (raw: Raw, key: string): number => (typeof raw?.[key] === 'number' ? raw[key] : 0);
const bool = (raw: Raw, key: string): boolean => raw?.[key] === true;
const object = (value: unknown): Raw => (value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined);

function option(value: unknown): DialogOption | null {
  const raw = object(value);
  return raw ? { text: str(raw, 'text'), value: str(raw, 'value') } : null;
}

function element(value: unknown): DialogElement {
  const raw = object(value);
  const options = raw?.options;
  return {
    display_name: str(raw, 'display_name'),
    name: str(raw, 'name'),
    type: str(raw, 'type'),
    subtype: str(raw, 'subtype'),
    default: str(raw, 'default'),
    placeholder: str(raw, 'placeholder'),
    help_text: str(raw, 'help_text'),
    optional: bool(raw, 'optional'),
    min_length: int(raw, 'min_length'),
    max_length: int(raw, 'max_length'),
    data_source: str(raw, 'data_source'),
    ...(str(raw, 'data_source_url') !== '' ? { data_source_url: str(raw, 'data_source_url') } : {}),
    options: Array.isArray(options) ? options.map(option) : null,
    multiselect: bool(raw, 'multiselect'),
    ...(bool(raw, 'refresh') ? { refresh: true } : {}),
    ...(str(raw, 'min_date') !== '' ? { min_date: str(raw, 'min_date') } : {}),
    ...(str(raw, 'max_date') !== '' ? { max_date: str(raw, 'max_date') } : {}),
    ...(int(raw, 'time_interval') !== 0 ? { time_interval: int(raw, 'time_interval') } : {}),
  };
}

/**
 * The dialog as the reference re-encodes it before sending `open_dialog`: every field of its Dialog and
 * DialogElement structs in their order, zero values for what was not given, unknown keys dropped
 * (`source_url`, `data_source_url`, `refresh`, dates and `time_interval` only when set). The input has
 * passed the route's type checks.
 */
export function canonicalDialog(value: unknown): Dialog {
  const raw = object(value);
  const elements = raw?.elements;
  return {
    callback_id: str(raw, 'callback_id'),
    title: str(raw, 'title'),
    introduction_text: str(raw, 'introduction_text'),
    icon_url: str(raw, 'icon_url'),
    elements: Array.isArray(elements) ? elements.map(element) : null,
    submit_label: str(raw, 'submit_label'),
    notify_on_cancel: bool(raw, 'notify_on_cancel'),
    state: str(raw, 'state'),
    ...(str(raw, 'source_url') !== '' ? { source_url: str(raw, 'source_url') } : {}),
  };
}
