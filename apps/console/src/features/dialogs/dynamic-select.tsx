import { useEffect, useState } from 'react';
import { SelectField, TextField } from '../../ui/field';
import { selectedValues } from './dialog-rules';
import type { DialogElement, DialogOption } from './dialog-types';

export type Lookup = (element: DialogElement, query: string) => Promise<DialogOption[]>;

interface Props {
  readonly element: DialogElement;
  readonly label: string;
  readonly hint: string | undefined;
  readonly problem: string | undefined;
  readonly value: string;
  readonly lookup: Lookup;
  readonly onChange: (value: string) => void;
}

/** How long typing must pause before the integration is asked (one lookup per pause, not per key). */
const TYPING_PAUSE_MS = 250;

/**
 * A dynamic select (11.0): its options come from the integration through `dialogs/lookup`, asked again
 * as the user types into the search box; chosen values stay chosen when the options change.
 */
export function DynamicSelect({ element, label, hint, problem, value, lookup, onChange }: Props) {
  const [query, setQuery] = useState('');
  const [options, setOptions] = useState<DialogOption[]>([]);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    const timer = setTimeout(() => {
      lookup(element, query).then(
        (found) => {
          if (!live) return;
          setOptions(found);
          setFailed(false);
        },
        () => live && setFailed(true),
      );
    }, TYPING_PAUSE_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [element, lookup, query]);
  const chosen = element.multiselect ? selectedValues(value) : value === '' ? [] : [value];
  const known = new Set(options.map((o) => o.value));
  const shown = [...options, ...chosen.filter((v) => !known.has(v)).map((v) => ({ text: v, value: v }))];
  return (
    <div className="dynamic-select">
      <TextField label={`Search ${label}`} value={query} onChange={(e) => setQuery(e.target.value)} placeholder={element.placeholder || 'Type to search…'} />
      <SelectField
        label={label}
        hint={failed ? 'The options could not be loaded.' : hint}
        problem={problem}
        multiple={element.multiselect === true}
        value={element.multiselect ? chosen : value}
        required={!element.optional}
        onChange={(e) => onChange(element.multiselect ? [...e.target.selectedOptions].map((o) => o.value).join(',') : e.target.value)}
      >
        {element.multiselect ? null : <option value="">Choose…</option>}
        {shown.map((o) => (
          <option key={o.value} value={o.value}>
            {o.text}
          </option>
        ))}
      </SelectField>
    </div>
  );
}
