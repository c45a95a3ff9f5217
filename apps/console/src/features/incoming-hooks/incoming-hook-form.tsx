import { useState, type FormEvent } from 'react';
import type { Channel, IncomingHook } from '../../api/types';
import { FormButtons } from '../../ui/form-buttons';
import { CheckboxField, SelectField, TextArea, TextField } from '../../ui/field';
import { DESCRIPTION_MAX, hookTextProblems, TITLE_MAX } from '../../api/webhook-rules';
import type { IncomingHookInput } from './use-incoming-hooks';

interface Props {
  readonly channels: readonly Channel[];
  readonly initial?: IncomingHook;
  readonly submitLabel: string;
  readonly pending: boolean;
  readonly error: unknown;
  onSubmit(input: IncomingHookInput): void;
  onCancel?(): void;
}

/** Create or edit an incoming webhook. */
export function IncomingHookForm({ channels, initial, submitLabel, pending, error, onSubmit, onCancel }: Props) {
  const [title, setTitle] = useState(initial?.display_name ?? '');
  const [description, setDescription] = useState(initial?.description ?? '');
  const [channelId, setChannelId] = useState(initial?.channel_id ?? channels[0]?.id ?? '');
  const [locked, setLocked] = useState(initial?.channel_locked ?? false);
  const [username, setUsername] = useState(initial?.username ?? '');
  const [iconUrl, setIconUrl] = useState(initial?.icon_url ?? '');
  const [reactions, setReactions] = useState(initial?.reaction_notifications ?? false);
  const [submitted, setSubmitted] = useState(false);
  const problems = hookTextProblems(title, description);
  const show = (field: 'title' | 'description') => (submitted || (field === 'title' ? title.length > TITLE_MAX : true) ? problems[field] : undefined);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (problems.title || problems.description || !channelId) return;
    onSubmit({ display_name: title.trim(), description, channel_id: channelId, channel_locked: locked, username, icon_url: iconUrl, reaction_notifications: reactions });
  };
  return (
    <form onSubmit={submit} noValidate aria-label={submitLabel}>
      <TextField label="Title" required value={title} onChange={(e) => setTitle(e.target.value)} hint={`Required; at most ${TITLE_MAX} characters (${title.length}/${TITLE_MAX}).`} problem={show('title')} />
      <TextArea
        label="Description"
        value={description}
        onChange={(e) => setDescription(e.target.value)}
        hint={`Optional; at most ${DESCRIPTION_MAX} characters (${description.length}/${DESCRIPTION_MAX}).`}
        problem={show('description')}
      />
      <SelectField label="Channel" value={channelId} onChange={(e) => setChannelId(e.target.value)} hint="Where posts go when the request names no channel." problem={submitted && !channelId ? 'Choose a channel.' : undefined}>
        {channels.map((c) => (
          <option key={c.id} value={c.id}>
            {c.display_name || c.name}
          </option>
        ))}
      </SelectField>
      <CheckboxField label="Lock to this channel" checked={locked} onChange={(e) => setLocked(e.target.checked)} hint="When on, requests that name another channel are refused." />
      <TextField label="Username" value={username} onChange={(e) => setUsername(e.target.value)} hint="Shown as the sender instead of your name, when username override is on in the System console." />
      <TextField label="Profile picture URL" type="url" value={iconUrl} onChange={(e) => setIconUrl(e.target.value)} hint="Shown instead of your picture, when icon override is on in the System console." />
      <CheckboxField label="Notify me of reactions" checked={reactions} onChange={(e) => setReactions(e.target.checked)} hint="You are told when someone reacts to this webhook's posts." />
      <FormButtons submitLabel={submitLabel} pending={pending} error={error} onCancel={onCancel} />
    </form>
  );
}
