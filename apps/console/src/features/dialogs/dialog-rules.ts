import { dateProblem, resolveDay, toLocalInput, toRfc3339 } from './dialog-dates';
import type { DialogElement, DialogOption, DialogValues } from './dialog-types';

/** The element types the console draws (others are skipped, as the reference's web app does). */
export const SUPPORTED_TYPES = new Set(['text', 'textarea', 'select', 'bool', 'radio', 'date', 'datetime', 'file']);

/** The ids of the dialog's `file` elements (sent as the submission's `file_ids`, 11.10). */
export function fileIdsOf(elements: readonly DialogElement[], values: DialogValues): string[] {
  return [...new Set(elements.filter((e) => e.type === 'file').flatMap((e) => selectedValues(values[e.name])))];
}

/** A multiselect's value: the chosen option values, comma-separated (as the reference writes its `default`). */
export const selectedValues = (value: string | boolean | undefined): string[] =>
  typeof value === 'string' ? value.split(',').map((v) => v.trim()).filter((v) => v !== '') : [];

export const supportedElements = (elements: readonly DialogElement[] | null | undefined): DialogElement[] =>
  (elements ?? []).filter((e) => SUPPORTED_TYPES.has(e.type) && e.name !== '');

export const optionsOf = (element: DialogElement): DialogOption[] => (element.options ?? []).filter((o): o is DialogOption => o !== null);

/** The values a dialog starts with: each element's `default` (bool: "true" → checked). */
export function initialValues(elements: readonly DialogElement[]): DialogValues {
  const values: Record<string, string | boolean> = {};
  for (const e of elements) {
    if (e.type === 'bool') values[e.name] = e.default === 'true';
    else if (e.type === 'date') values[e.name] = resolveDay(e.default) ?? '';
    else if (e.type === 'datetime') values[e.name] = toLocalInput(e.default);
    else if (e.type === 'select' && e.multiselect) values[e.name] = selectedValues(e.default ?? '').join(',');
    else values[e.name] = e.default ?? '';
  }
  return values;
}

const EMAIL = /^[^\s@]+@[^\s@]+$/;

/** The problem with one value in words, or undefined; the checks the reference's web app makes before sending. */
export function elementProblem(element: DialogElement, value: string | boolean | undefined): string | undefined {
  if (element.type === 'bool') return !element.optional && value !== true ? 'This field is required.' : undefined;
  const text = typeof value === 'string' ? value : '';
  if (text.trim() === '') return element.optional ? undefined : 'This field is required.';
  if (element.type === 'text' || element.type === 'textarea') {
    const min = element.min_length ?? 0;
    const max = element.max_length ?? 0;
    if (min > 0 && text.length < min) return `Must be at least ${min} characters.`;
    if (max > 0 && text.length > max) return `Must be at most ${max} characters.`;
    if (element.subtype === 'number' && !Number.isFinite(Number(text))) return 'Must be a number.';
    if (element.subtype === 'email' && !EMAIL.test(text)) return 'Must be a valid email address.';
    if (element.subtype === 'url' && !/^https?:\/\/\S+$/i.test(text)) return 'Must be a URL starting with http:// or https://.';
  }
  if (element.type === 'date' || element.type === 'datetime') return dateProblem(element, text);
  if ((element.type === 'radio' || (element.type === 'select' && !element.data_source)) && !(element.type === 'select' && element.multiselect ? selectedValues(text) : [text]).every((v) => optionsOf(element).some((o) => o.value === v))) {
    return 'Choose one of the options.';
  }
  return undefined;
}

/** Every element's problem, by element name (empty when the dialog may be sent). */
export function dialogProblems(elements: readonly DialogElement[], values: DialogValues): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const e of elements) {
    const problem = elementProblem(e, values[e.name]);
    if (problem) problems[e.name] = problem;
  }
  return problems;
}

export type SubmissionValue = string | number | boolean | string[];

/**
 * The submission as the reference's web app sends it: bools as booleans, numbers as numbers, a multiselect as
 * the list of values, a datetime as RFC 3339 with the user's offset, empty optional fields left out.
 */
export function submissionOf(elements: readonly DialogElement[], values: DialogValues): Record<string, SubmissionValue> {
  const submission: Record<string, SubmissionValue> = {};
  for (const e of elements) {
    const value = values[e.name];
    if (e.type === 'bool') submission[e.name] = value === true;
    else if (e.type === 'select' && e.multiselect) {
      if (selectedValues(value).length > 0) submission[e.name] = selectedValues(value);
    } else if (typeof value === 'string' && value !== '') submission[e.name] = e.subtype === 'number' ? Number(value) : e.type === 'datetime' ? toRfc3339(value) : value;
  }
  return submission;
}
