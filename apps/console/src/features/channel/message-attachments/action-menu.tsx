import { useId, useState } from 'react';
import type { ActionOption, DataSources } from '../../data-sources/data-sources';
import type { AttachmentAction, OnAction } from './types';

/** An interactive menu: fixed options, or users/channels from `data_source`; the default option preselected; a pick calls the action. */
export function ActionMenu({ action, onAction, busy, sources }: { action: AttachmentAction; onAction: OnAction; busy: boolean; sources: DataSources }) {
  const id = useId();
  const options: readonly ActionOption[] = action.data_source === 'users' ? sources.users : action.data_source === 'channels' ? sources.channels : (action.options ?? []);
  const [value, setValue] = useState(action.default_option ?? '');
  const label = action.name || 'Choose an option';
  return (
    <span className="action-menu">
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <select
        id={id}
        value={value}
        disabled={action.disabled === true || busy || !action.id}
        onChange={(e) => {
          setValue(e.target.value);
          if (action.id && e.target.value !== '') onAction(action.id, e.target.value);
        }}
      >
        <option value="" disabled>
          {label}
        </option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.text}
          </option>
        ))}
      </select>
    </span>
  );
}
