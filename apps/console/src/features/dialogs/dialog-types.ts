/** The `open_dialog` WebSocket event's `dialog` (a JSON string): the reference's OpenDialogRequest, trigger id replaced. */
export interface DialogOption {
  readonly text: string;
  readonly value: string;
}

export interface DialogElement {
  readonly display_name: string;
  readonly name: string;
  readonly type: string;
  readonly subtype?: string;
  readonly default?: string;
  readonly placeholder?: string;
  readonly help_text?: string;
  readonly optional?: boolean;
  readonly min_length?: number;
  readonly max_length?: number;
  readonly data_source?: string;
  readonly options?: readonly (DialogOption | null)[] | null;
}

export interface Dialog {
  readonly callback_id?: string;
  readonly title?: string;
  readonly introduction_text?: string;
  readonly icon_url?: string;
  readonly elements?: readonly DialogElement[] | null;
  readonly submit_label?: string;
  readonly notify_on_cancel?: boolean;
  readonly state?: string;
}

export interface OpenDialog {
  readonly trigger_id: string;
  readonly url: string;
  readonly dialog: Dialog;
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
