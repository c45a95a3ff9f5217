import { useState, type FormEvent } from 'react';
import { FormButtons } from '../../ui/form-buttons';
import { CheckboxField, SelectField, TextField } from '../../ui/field';
import { CommandLimits, commandProblems, emptyDraft, type CommandDraft } from './command-rules';

interface Props {
  readonly initial?: CommandDraft;
  readonly submitLabel: string;
  readonly pending: boolean;
  readonly error: unknown;
  onSubmit(draft: CommandDraft): void;
  onCancel?(): void;
}

const pick = (d: CommandDraft): CommandDraft => ({
  trigger: d.trigger,
  url: d.url,
  method: d.method || 'P',
  display_name: d.display_name,
  description: d.description,
  username: d.username,
  icon_url: d.icon_url,
  auto_complete: d.auto_complete,
  auto_complete_desc: d.auto_complete_desc,
  auto_complete_hint: d.auto_complete_hint,
});

/** Create or edit a custom slash command: its trigger word, where it calls and how, and its autocomplete text. */
export function CommandForm({ initial, submitLabel, pending, error, onSubmit, onCancel }: Props) {
  const [draft, setDraft] = useState<CommandDraft>(pick(initial ?? emptyDraft));
  const [submitted, setSubmitted] = useState(false);
  const problems = commandProblems(draft);
  const shown = (field: keyof CommandDraft) => (submitted ? problems[field] : undefined);
  const set = <K extends keyof CommandDraft>(field: K, value: CommandDraft[K]) => setDraft((d) => ({ ...d, [field]: value }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (Object.keys(problems).length === 0) onSubmit({ ...draft, trigger: draft.trigger.trim(), url: draft.url.trim() });
  };
  return (
    <form onSubmit={submit} noValidate aria-label={submitLabel}>
      <TextField label="Title" value={draft.display_name} onChange={(e) => set('display_name', e.target.value)} hint={`Optional; at most ${CommandLimits.displayName} characters.`} problem={problems.display_name} />
      <TextField label="Description" value={draft.description} onChange={(e) => set('description', e.target.value)} hint={`Optional; at most ${CommandLimits.description} characters.`} problem={problems.description} />
      <TextField label="Command trigger word" required value={draft.trigger} onChange={(e) => set('trigger', e.target.value)} hint="The word after the slash, without it: “deploy” runs as /deploy. No spaces." problem={shown('trigger')} />
      <TextField label="Request URL" required type="url" value={draft.url} onChange={(e) => set('url', e.target.value)} hint="Called when someone runs the command; it answers with the message to show." problem={shown('url')} />
      <SelectField label="Request method" value={draft.method} onChange={(e) => set('method', e.target.value)} hint="POST sends the fields in the body; GET in the query string.">
        <option value="P">POST</option>
        <option value="G">GET</option>
      </SelectField>
      <TextField label="Response username" value={draft.username} onChange={(e) => set('username', e.target.value)} hint="Optional; shown instead of your name when overriding names is allowed." />
      <TextField label="Response icon URL" type="url" value={draft.icon_url} onChange={(e) => set('icon_url', e.target.value)} hint="Optional; shown instead of your picture when overriding icons is allowed." />
      <CheckboxField label="Autocomplete" checked={draft.auto_complete} onChange={(e) => set('auto_complete', e.target.checked)} hint="List the command when someone types a slash." />
      {draft.auto_complete ? (
        <>
          <TextField label="Autocomplete hint" value={draft.auto_complete_hint} onChange={(e) => set('auto_complete_hint', e.target.value)} hint="The arguments, e.g. [environment]." />
          <TextField label="Autocomplete description" value={draft.auto_complete_desc} onChange={(e) => set('auto_complete_desc', e.target.value)} hint="One line on what the command does." />
        </>
      ) : null}
      <FormButtons submitLabel={submitLabel} pending={pending} error={error} onCancel={onCancel} />
    </form>
  );
}
