import { useState, type FormEvent } from 'react';
import type { Channel, OutgoingHook } from '../../api/types';
import { FormButtons } from '../../ui/form-buttons';
import { SelectField, TextArea, TextField } from '../../ui/field';
import { DESCRIPTION_MAX, hookTextProblems, TITLE_MAX } from '../../api/webhook-rules';
import type { OutgoingHookInput } from './use-outgoing-hooks';

const lines = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');

interface Props {
  readonly teamId: string;
  readonly channels: readonly Channel[];
  readonly initial?: OutgoingHook;
  readonly submitLabel: string;
  readonly pending: boolean;
  readonly error: unknown;
  onSubmit(input: OutgoingHookInput): void;
  onCancel?(): void;
}

/** Create or edit an outgoing webhook: what fires it (channel and/or trigger words) and where it calls. */
export function OutgoingHookForm({ teamId, channels, initial, submitLabel, pending, error, onSubmit, onCancel }: Props) {
  const [title, setTitle] = useState(initial?.display_name ?? '');
  const [description, setDescription] = useState(initial?.description ?? '');
  const [contentType, setContentType] = useState(initial?.content_type || 'application/x-www-form-urlencoded');
  const [channelId, setChannelId] = useState(initial?.channel_id ?? '');
  const [triggers, setTriggers] = useState((initial?.trigger_words ?? []).join('\n'));
  const [when, setWhen] = useState(initial?.trigger_when ?? 0);
  const [urls, setUrls] = useState((initial?.callback_urls ?? []).join('\n'));
  const [submitted, setSubmitted] = useState(false);
  const text = hookTextProblems(title, description);
  const needsTrigger = channelId === '' && lines(triggers).length === 0 ? 'Give trigger words, a channel, or both.' : undefined;
  const needsUrl = lines(urls).length === 0 ? 'At least one callback URL is needed.' : undefined;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (text.title || text.description || needsTrigger || needsUrl) return;
    onSubmit({
      team_id: teamId,
      display_name: title.trim(),
      description,
      content_type: contentType,
      channel_id: channelId,
      trigger_words: lines(triggers),
      trigger_when: when,
      callback_urls: lines(urls),
      username: initial?.username ?? '',
      icon_url: initial?.icon_url ?? '',
    });
  };
  return (
    <form onSubmit={submit} noValidate aria-label={submitLabel}>
      <TextField label="Title" required value={title} onChange={(e) => setTitle(e.target.value)} hint={`Required; at most ${TITLE_MAX} characters (${title.length}/${TITLE_MAX}).`} problem={submitted || title.length > TITLE_MAX ? text.title : undefined} />
      <TextArea label="Description" value={description} onChange={(e) => setDescription(e.target.value)} hint={`Optional; at most ${DESCRIPTION_MAX} characters (${description.length}/${DESCRIPTION_MAX}).`} problem={text.description} />
      <SelectField label="Content type" value={contentType} onChange={(e) => setContentType(e.target.value)} hint="How the message is sent to your callback URLs.">
        <option value="application/x-www-form-urlencoded">application/x-www-form-urlencoded</option>
        <option value="application/json">application/json</option>
      </SelectField>
      <SelectField label="Channel" value={channelId} onChange={(e) => setChannelId(e.target.value)} hint="Optional if trigger words are given; only public channels can fire outgoing webhooks.">
        <option value="">Any public channel (trigger words only)</option>
        {channels
          .filter((c) => c.type === 'O')
          .map((c) => (
            <option key={c.id} value={c.id}>
              {c.display_name || c.name}
            </option>
          ))}
      </SelectField>
      <TextArea label="Trigger words" value={triggers} onChange={(e) => setTriggers(e.target.value)} hint="One per line; optional if a channel is chosen." problem={submitted ? needsTrigger : undefined} />
      <SelectField label="Trigger when" value={String(when)} onChange={(e) => setWhen(Number(e.target.value))} hint="Applies only when trigger words are given.">
        <option value="0">The first word is exactly a trigger word</option>
        <option value="1">The first word starts with a trigger word</option>
      </SelectField>
      <TextArea label="Callback URLs" value={urls} onChange={(e) => setUrls(e.target.value)} hint="One per line; each receives a POST for every matching message." problem={submitted ? needsUrl : undefined} />
      <FormButtons submitLabel={submitLabel} pending={pending} error={error} onCancel={onCancel} />
    </form>
  );
}
