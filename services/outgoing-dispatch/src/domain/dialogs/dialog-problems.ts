import type { Dialog, DialogElement, DialogOption } from '@switchyard/contracts/wire';

/** The dialog as `dialogs/open` received it, after the type checks of its schema (canonical form): the wire types. */
export type { Dialog, DialogElement, DialogOption };

/** The reference's limits (bytes, as Go's len()). */
export const DialogLimits = {
  title: 24,
  displayName: 24,
  name: 300,
  helpText: 150,
  text: 150,
  textarea: 3000,
  select: 3000,
  bool: 150,
  file: 300,
} as const;

const TEXT_SUBTYPES = new Set(['', 'text', 'email', 'number', 'tel', 'url', 'password']);
const DATA_SOURCES = new Set(['', 'users', 'channels', 'dynamic']);
const RELATIVE_DATE = /^[+-]\d{1,3}[dwmhDWMH]$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const ISO_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?(Z|[+-]\d{2}:\d{2})?$/;

const bytes = (value: string): number => Buffer.byteLength(value, 'utf8');

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.host !== '';
  } catch {
    return false;
  }
}

function tooLong(field: string, value: string, max: number, required = false): string[] {
  if (required && value === '') return [`${field} cannot be empty`];
  return bytes(value) > max ? [`${field} cannot be longer than ${max} characters, got ${bytes(value)}`] : [];
}

function defaultInOptions(value: string, options: DialogElement['options'], multiple: boolean): boolean {
  if (value === '') return true;
  const values = new Set((options ?? []).filter((o): o is DialogOption => o !== null).map((o) => o.value));
  const wanted = multiple ? value.replace(/ /g, '').split(',').filter((v) => v !== '') : [value];
  return wanted.every((v) => values.has(v));
}

const isDate = (value: string): boolean => value === '' || ['today', 'tomorrow', 'yesterday'].includes(value) || RELATIVE_DATE.test(value) || ISO_DATE.test(value) || ISO_DATETIME.test(value);

function typeProblems(e: DialogElement): string[] {
  const problems: string[] = [];
  switch (e.type) {
    case 'text':
    case 'textarea': {
      const max = e.type === 'text' ? DialogLimits.text : DialogLimits.textarea;
      problems.push(...tooLong('Default', e.default, max), ...tooLong('Placeholder', e.placeholder, max));
      if (!TEXT_SUBTYPES.has(e.subtype)) problems.push(`invalid subtype "${e.subtype}"`);
      break;
    }
    case 'select':
      problems.push(...tooLong('Default', e.default, DialogLimits.select), ...tooLong('Placeholder', e.placeholder, DialogLimits.select));
      if (!DATA_SOURCES.has(e.data_source)) problems.push(`invalid data source "${e.data_source}", allowed are 'users', 'channels', or 'dynamic'`);
      if (e.data_source === 'dynamic') {
        if (!e.data_source_url) problems.push('dynamic data_source requires data_source_url');
        else if (!isHttpUrl(e.data_source_url) && !e.data_source_url.startsWith('/plugins/')) problems.push('invalid data_source_url for dynamic select');
        if ((e.options ?? []).length > 0) problems.push('dynamic select element should not have static options');
      } else if (e.data_source === '' && !defaultInOptions(e.default, e.options, e.multiselect)) {
        problems.push(`default value "${e.default}" doesn't exist in options`);
      }
      break;
    case 'bool':
      if (!['', 'true', 'false'].includes(e.default)) problems.push('invalid default of bool');
      problems.push(...tooLong('Placeholder', e.placeholder, DialogLimits.bool));
      break;
    case 'radio':
      if (!defaultInOptions(e.default, e.options, false)) problems.push(`default value "${e.default}" doesn't exist in options`);
      break;
    case 'date':
    case 'datetime':
      problems.push(...tooLong('Default', e.default, DialogLimits.text), ...tooLong('Placeholder', e.placeholder, DialogLimits.text));
      for (const [name, value] of [['default', e.default], ['min_date', e.min_date ?? ''], ['max_date', e.max_date ?? '']] as const) {
        if (!isDate(value)) problems.push(`invalid ${name} date "${value}"`);
      }
      if (e.type === 'datetime' && e.time_interval !== undefined && e.time_interval !== 0 && (e.time_interval < 1 || e.time_interval > 1440 || 1440 % e.time_interval !== 0)) {
        problems.push(`time_interval must be a divisor of 1440, got ${e.time_interval}`);
      }
      break;
    case 'file': {
      // 11.10: `default` is a comma-separated list of earlier uploads (one unless allow_multiple, at most 10).
      problems.push(...tooLong('Default', e.default, DialogLimits.file), ...tooLong('Placeholder', e.placeholder, DialogLimits.file));
      const ids = e.default.split(',').filter((id) => id.trim() !== '');
      if (ids.length > (e.allow_multiple ? 10 : 1)) problems.push(`too many default files: ${ids.length}`);
      break;
    }
    default:
      problems.push(`invalid element type: "${e.type}"`);
  }
  return problems;
}

/** One element's problems (the reference's DialogElement.IsValid). */
export function elementProblems(e: DialogElement): string[] {
  const problems: string[] = [];
  if (e.min_length < 0) problems.push(`min length cannot be a negative number, got ${e.min_length}`);
  if (e.min_length > e.max_length) problems.push(`min length should be less then max length, got ${e.min_length} > ${e.max_length}`);
  problems.push(...tooLong('DisplayName', e.display_name, DialogLimits.displayName, true));
  problems.push(...tooLong('Name', e.name, DialogLimits.name, true));
  problems.push(...tooLong('HelpText', e.help_text, DialogLimits.helpText));
  if (e.multiselect && e.type !== 'select') problems.push(`multiselect can only be used with select elements, got type "${e.type}"`);
  for (const [i, option] of (e.options ?? []).entries()) {
    if (option === null) problems.push(`option at index ${i} is null`);
    else if (option.text === '' || option.value === '') problems.push(`option at index ${i} needs a text and a value`);
  }
  return [...problems, ...typeProblems(e)];
}

/**
 * Everything the reference's Dialog.IsValid finds wrong with a dialog (title 1–24, icon URL, unique
 * element names, each element's type, subtype, lengths, options and data source). The reference only
 * logs these and opens the dialog anyway; so does `dialogs/open`.
 */
export function dialogProblems(dialog: Dialog): string[] {
  const problems: string[] = [];
  if (dialog.title === '' || bytes(dialog.title) > DialogLimits.title) problems.push(`invalid dialog title "${dialog.title}"`);
  if (dialog.icon_url !== '' && !isHttpUrl(dialog.icon_url)) problems.push('invalid icon url');
  const seen = new Set<string>();
  for (const element of dialog.elements ?? []) {
    if (seen.has(element.name)) problems.push(`duplicate dialog element "${element.name}"`);
    seen.add(element.name);
    for (const problem of elementProblems(element)) problems.push(`"${element.name}" field is not valid: ${problem}`);
  }
  return problems;
}
