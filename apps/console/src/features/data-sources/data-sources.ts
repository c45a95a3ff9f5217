/** One choice of a menu: what is shown, and the value sent back. */
export interface ActionOption {
  readonly text: string;
  readonly value: string;
}

/**
 * Options a menu with `data_source` fills itself from (message attachment menus and dialog selects). Its own
 * module so that the channel view and the dialogs both use it without importing each other.
 */
export interface DataSources {
  readonly users: readonly ActionOption[];
  readonly channels: readonly ActionOption[];
}
