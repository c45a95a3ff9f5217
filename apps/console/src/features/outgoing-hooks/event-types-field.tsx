import { useId } from 'react';
import { FieldNotes, describedBy } from '../../ui/field';
import { eventTypeLabel } from './hook-events';

/** Checkboxes for the events a hook hears; `value` keeps the order of `available`. */
export function EventTypesField({ available, value, onChange, problem }: { available: readonly string[]; value: readonly string[]; onChange: (next: readonly string[]) => void; problem?: string | undefined }) {
  const id = useId();
  const hint = 'A posted message is sent as Mattermost sends it; every other event as a JSON event envelope.';
  // A type the user may not pick (an admin's hook edited by someone else) stays shown and checked, but fixed.
  const shown = [...available, ...value.filter((t) => !available.includes(t))];
  const toggle = (type: string, on: boolean) => onChange(shown.filter((t) => (t === type ? on : value.includes(t))));
  return (
    <fieldset className="field checks" aria-describedby={describedBy(id, hint, problem)}>
      <legend>Events</legend>
      {shown.map((type) => (
        <label key={type} className="check">
          <input type="checkbox" checked={value.includes(type)} disabled={!available.includes(type)} onChange={(e) => toggle(type, e.target.checked)} />
          {eventTypeLabel(type)} <code className="muted">{type}</code>
        </label>
      ))}
      <FieldNotes id={id} hint={hint} problem={problem} />
    </fieldset>
  );
}
