import type { DialogDatetimeConfig } from '@switchyard/contracts/wire';
import type { Dialog, DialogElement, DialogOption } from './dialog-problems';

type Raw = Readonly<Record<string, unknown>>;

const object = (value: unknown): Raw | undefined => (value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Raw) : undefined);

/** How one field is read: its value when it has the right JSON type, else the zero value. */
const kinds = {
  string: (value: unknown): string => (typeof value === 'string' ? value : ''),
  int: (value: unknown): number => (typeof value === 'number' ? value : 0),
  bool: (value: unknown): boolean => value === true,
  options: (value: unknown): (DialogOption | null)[] | null => (Array.isArray(value) ? value.map((o) => (object(o) ? encode<DialogOption>(OPTION, o) : null)) : null),
  elements: (value: unknown): DialogElement[] | null => (Array.isArray(value) ? value.map((e) => encode<DialogElement>(ELEMENT, e)) : null),
  // A pointer in the reference's struct: absent (nil) unless an object was given.
  datetimeConfig: (value: unknown): DialogDatetimeConfig | null => (object(value) ? encode<DialogDatetimeConfig>(DATETIME_CONFIG, value) : null),
} as const;

/** A field of a reference struct: its JSON key, its kind, and whether it is left out when it has its zero value. */
type Field = readonly [key: string, kind: keyof typeof kinds, omitWhenZero?: 'omitempty'];

const OPTION: readonly Field[] = [
  ['text', 'string'],
  ['value', 'string'],
];

/** The reference's DialogDateTimeConfig (11.6, 11.8): every field omitempty. */
const DATETIME_CONFIG: readonly Field[] = [
  ['time_interval', 'int', 'omitempty'],
  ['location_timezone', 'string', 'omitempty'],
  ['allow_manual_time_entry', 'bool', 'omitempty'],
  ['min_date', 'string', 'omitempty'],
  ['max_date', 'string', 'omitempty'],
  ['manual_time_entry', 'bool', 'omitempty'],
];

/** The reference's DialogElement, in struct order. */
const ELEMENT: readonly Field[] = [
  ['display_name', 'string'],
  ['name', 'string'],
  ['type', 'string'],
  ['subtype', 'string'],
  ['default', 'string'],
  ['placeholder', 'string'],
  ['help_text', 'string'],
  ['optional', 'bool'],
  ['min_length', 'int'],
  ['max_length', 'int'],
  ['data_source', 'string'],
  ['data_source_url', 'string', 'omitempty'],
  ['options', 'options'],
  ['multiselect', 'bool'],
  ['refresh', 'bool', 'omitempty'],
  ['min_date', 'string', 'omitempty'],
  ['max_date', 'string', 'omitempty'],
  ['time_interval', 'int', 'omitempty'],
  ['datetime_config', 'datetimeConfig', 'omitempty'],
  ['allow_multiple', 'bool', 'omitempty'],
];

/** The reference's Dialog, in struct order. */
const DIALOG: readonly Field[] = [
  ['callback_id', 'string'],
  ['title', 'string'],
  ['introduction_text', 'string'],
  ['icon_url', 'string'],
  ['elements', 'elements'],
  ['submit_label', 'string'],
  ['notify_on_cancel', 'bool'],
  ['state', 'string'],
  ['source_url', 'string', 'omitempty'],
];

const isZero = (value: unknown): boolean => value === '' || value === 0 || value === false || value === null;

/** Encodes `value` as Go's encoding/json would the struct described by `fields`: their order, zero values, unknown keys dropped. */
function encode<T>(fields: readonly Field[], value: unknown): T {
  const raw = object(value);
  const out: Record<string, unknown> = {};
  for (const [key, kind, omit] of fields) {
    const read = kinds[kind](raw?.[key]);
    if (omit === undefined || !isZero(read)) out[key] = read;
  }
  return out as T;
}

/**
 * The dialog as the reference re-encodes it before sending `open_dialog`: every field of its Dialog and
 * DialogElement structs in their order, zero values for what was not given, unknown keys dropped
 * (`source_url`, `data_source_url`, `refresh`, dates and `time_interval` only when set). The input has
 * passed the route's type checks.
 */
export function canonicalDialog(value: unknown): Dialog {
  return encode<Dialog>(DIALOG, value);
}
