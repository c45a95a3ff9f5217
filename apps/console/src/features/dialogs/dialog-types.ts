import type { Dialog as WireDialog, DialogElement as WireElement, DialogOption } from '@switchyard/contracts/wire';

export type { DialogOption };

/** An element as the console reads it: the wire element (one declaration, in @switchyard/contracts), tolerating absent optional fields. */
export type DialogElement = Pick<WireElement, 'display_name' | 'name' | 'type'> & Partial<Omit<WireElement, 'display_name' | 'name' | 'type'>>;

/** The `open_dialog` WebSocket event's `dialog` (a JSON string): the reference's OpenDialogRequest, trigger id replaced. */
export type Dialog = Partial<Omit<WireDialog, 'elements'>> & { readonly elements?: readonly DialogElement[] | null };

export interface OpenDialog {
  readonly trigger_id: string;
  readonly url: string;
  readonly dialog: Dialog;
  /** The values of the step before (a next or refreshed form keeps those of fields with the same name). */
  readonly values?: DialogValues;
}

/** One value per element name: text for text/textarea/select/radio, true/false for bool. */
export type DialogValues = Readonly<Record<string, string | boolean>>;

/** What `POST /api/v4/actions/dialogs/submit` answers (every key optional). */
export interface DialogAnswer {
  readonly error?: string;
  readonly errors?: Readonly<Record<string, string>>;
  readonly type?: string;
  readonly form?: Dialog;
}

/** Parses the event's `dialog` string; undefined when it is not an object with a url and a dialog. */
export function parseOpenDialog(raw: unknown): OpenDialog | undefined {
  if (typeof raw !== 'string') return undefined;
  try {
    const parsed = JSON.parse(raw) as Partial<OpenDialog> | null;
    if (!parsed || typeof parsed.url !== 'string' || typeof parsed.dialog !== 'object' || parsed.dialog === null) return undefined;
    return { trigger_id: String(parsed.trigger_id ?? ''), url: parsed.url, dialog: parsed.dialog };
  } catch {
    return undefined;
  }
}
