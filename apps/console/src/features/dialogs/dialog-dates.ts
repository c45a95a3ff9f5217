import type { DialogElement } from './dialog-types';

const RELATIVE = /^([+-])(\d{1,4})([dwMy])$/;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

const pad = (n: number, width = 2): string => String(Math.abs(n)).padStart(width, '0');

/** A local calendar day as `YYYY-MM-DD`. */
export const isoDay = (d: Date): string => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

/**
 * A dialog date as the reference writes it (`today`, `tomorrow`, `yesterday`, `+Nd`, `+Nw`, `+NM`, `+Ny`,
 * `-Nd`, or `YYYY-MM-DD`; an RFC 3339 value counts by its day) → the local day, or undefined when unreadable.
 */
export function resolveDay(value: string | undefined, now: Date = new Date()): string | undefined {
  if (value === undefined || value === '') return undefined;
  const day = new Date(now.getFullYear(), now.getMonth(), now.getDate());
  if (value === 'today') return isoDay(day);
  if (value === 'tomorrow') return isoDay(new Date(day.getFullYear(), day.getMonth(), day.getDate() + 1));
  if (value === 'yesterday') return isoDay(new Date(day.getFullYear(), day.getMonth(), day.getDate() - 1));
  const relative = RELATIVE.exec(value);
  if (relative) {
    const n = Number(relative[2]) * (relative[1] === '-' ? -1 : 1);
    const unit = relative[3];
    if (unit === 'd') return isoDay(new Date(day.getFullYear(), day.getMonth(), day.getDate() + n));
    if (unit === 'w') return isoDay(new Date(day.getFullYear(), day.getMonth(), day.getDate() + 7 * n));
    if (unit === 'M') return isoDay(new Date(day.getFullYear(), day.getMonth() + n, day.getDate()));
    return isoDay(new Date(day.getFullYear() + n, day.getMonth(), day.getDate()));
  }
  const iso = ISO_DATE.exec(value.slice(0, 10));
  if (!iso) return undefined;
  const parsed = new Date(Number(iso[1]), Number(iso[2]) - 1, Number(iso[3]));
  return isoDay(parsed) === value.slice(0, 10) ? value.slice(0, 10) : undefined;
}

/** The element's bounds and step: `datetime_config` first, then the legacy keys; the interval 1–1440 minutes dividing 1440, default 60. */
export function dateRules(element: DialogElement, now: Date = new Date()): { min?: string; max?: string; intervalMinutes: number } {
  // `datetime_config` (11.6, 11.8) wins over the legacy top-level keys (which the reference ignores from 12.0).
  const config = element.datetime_config ?? {};
  const min = resolveDay(config.min_date ?? element.min_date, now);
  const max = resolveDay(config.max_date ?? element.max_date, now);
  const interval = config.time_interval ?? element.time_interval ?? 60;
  const intervalMinutes = Number.isInteger(interval) && interval >= 1 && interval <= 1440 && 1440 % interval === 0 ? interval : 60;
  return { ...(min ? { min } : {}), ...(max ? { max } : {}), intervalMinutes };
}

/** The problem with a date or datetime value (as the input gives it: `YYYY-MM-DD` or `YYYY-MM-DDTHH:MM`), or undefined. */
export function dateProblem(element: DialogElement, value: string, now: Date = new Date()): string | undefined {
  const day = resolveDay(value.slice(0, 10), now);
  if (!day || (element.type === 'date' && value.length !== 10)) return element.type === 'date' ? 'Must be a date (YYYY-MM-DD).' : 'Must be a date and time.';
  const { min, max, intervalMinutes } = dateRules(element, now);
  if (min && day < min) return `Must be on or after ${min}.`;
  if (max && day > max) return `Must be on or before ${max}.`;
  if (element.type === 'datetime') {
    const time = /T(\d{2}):(\d{2})/.exec(value);
    if (!time) return 'Must be a date and time.';
    if ((Number(time[1]) * 60 + Number(time[2])) % intervalMinutes !== 0) return `Choose a time in steps of ${intervalMinutes} minutes.`;
  }
  return undefined;
}

/** A `datetime-local` value → RFC 3339 with the user's offset, as the reference's web app submits it (`2024-03-15T14:30:00-05:00`). */
export function toRfc3339(local: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(local);
  if (!match) return local;
  const date = new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]), Number(match[4]), Number(match[5]));
  const offset = -date.getTimezoneOffset();
  const sign = offset >= 0 ? '+' : '-';
  return `${match[1]}-${match[2]}-${match[3]}T${match[4]}:${match[5]}:00${sign}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`;
}

/** A default or submitted datetime (RFC 3339 or relative: then noon) → the `datetime-local` input's value. */
export function toLocalInput(value: string | undefined, now: Date = new Date()): string {
  if (value === undefined || value === '') return '';
  const parsed = Date.parse(value);
  if (/T\d{2}:\d{2}/.test(value) && !Number.isNaN(parsed)) {
    const d = new Date(parsed);
    return `${isoDay(d)}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
  }
  const day = resolveDay(value, now);
  return day ? `${day}T12:00` : '';
}
