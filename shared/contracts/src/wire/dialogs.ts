/**
 * Interactive dialogs on the wire: the reference's Dialog, DialogElement and PostActionOptions structs as
 * `open_dialog` and a `form` answer carry them once the server has re-encoded them (every field, struct
 * order, zero values; the optional ones only when set).
 */
export interface DialogOption {
  readonly text: string;
  readonly value: string;
}

export interface DialogElement {
  readonly display_name: string;
  readonly name: string;
  readonly type: string;
  readonly subtype: string;
  readonly default: string;
  readonly placeholder: string;
  readonly help_text: string;
  readonly optional: boolean;
  readonly min_length: number;
  readonly max_length: number;
  readonly data_source: string;
  readonly data_source_url?: string;
  readonly options: readonly (DialogOption | null)[] | null;
  readonly multiselect: boolean;
  readonly refresh?: boolean;
  readonly min_date?: string;
  readonly max_date?: string;
  readonly time_interval?: number;
  /** 11.6/11.8: wins over the legacy top-level date keys. */
  readonly datetime_config?: DialogDatetimeConfig;
  /** 11.10 `file` elements: several files may be chosen. */
  readonly allow_multiple?: boolean;
}

export interface DialogDatetimeConfig {
  readonly time_interval?: number;
  readonly location_timezone?: string;
  readonly allow_manual_time_entry?: boolean;
  readonly min_date?: string;
  readonly max_date?: string;
  readonly manual_time_entry?: boolean;
}

export interface Dialog {
  readonly callback_id: string;
  readonly title: string;
  readonly introduction_text: string;
  readonly icon_url: string;
  readonly elements: readonly DialogElement[] | null;
  readonly submit_label: string;
  readonly notify_on_cancel: boolean;
  readonly state: string;
  readonly source_url?: string;
}
