import { useState, type FormEvent } from 'react';
import type { SystemConfig } from '../../api/types';
import { ErrorText } from '../../ui/feedback';
import { CheckboxField, TextField } from '../../ui/field';
import type { Setting } from './settings';
import { useConfigActions } from './use-config';

/** One setting, applied live through PUT /config/patch: a switch at once, a value on Save. The outcome is said next to it. */
export function SettingControl({ setting, config }: { setting: Setting; config: SystemConfig }) {
  const { patch } = useConfigActions();
  // While a change is on its way, the control shows it (then the saved config, or the old value again on error).
  // It is local state set in the event handler itself: the mutation's own pending state reaches React only on a
  // later tick, and until then a controlled checkbox would snap back to the old value under the user's click.
  const [optimistic, setOptimistic] = useState<{ readonly value: unknown } | undefined>(undefined);
  const current = optimistic ? optimistic.value : config[setting.section][setting.key];
  const [draft, setDraft] = useState(current === undefined || current === null ? '' : String(current));
  const saving = patch.isPending || optimistic !== undefined;
  const apply = (value: unknown) => {
    setOptimistic({ value });
    patch.mutate({ [setting.section]: { [setting.key]: value } }, { onSettled: () => setOptimistic(undefined) });
  };
  const save = (event: FormEvent) => {
    event.preventDefault();
    apply(setting.kind === 'number' ? Number(draft) : draft);
  };
  return (
    <div className="setting">
      {setting.kind === 'boolean' ? (
        <CheckboxField label={setting.label} hint={setting.help} checked={current === true} disabled={saving} onChange={(e) => apply(e.target.checked)} />
      ) : (
        <form onSubmit={save} className="inline-form">
          <TextField label={setting.label} hint={setting.help} type={setting.kind === 'number' ? 'number' : 'text'} value={draft} onChange={(e) => setDraft(e.target.value)} />
          <button type="submit" disabled={saving}>
            Save {setting.label.toLowerCase()}
          </button>
        </form>
      )}
      <p role="status" className="muted">
        {saving ? 'Saving…' : patch.isSuccess ? 'Saved; in effect now.' : ''}
      </p>
      <ErrorText error={patch.error} />
    </div>
  );
}
