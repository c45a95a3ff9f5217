import { useState, type FormEvent } from 'react';
import type { Bot, Channel, OutgoingHook } from '../../api/types';
import { CopyButton } from '../../ui/copy-button';
import { FormButtons } from '../../ui/form-buttons';
import { SelectField, TextArea, TextField } from '../../ui/field';
import { DESCRIPTION_MAX, hookTextProblems, TITLE_MAX } from '../../api/webhook-rules';
import { EventTypesField } from './event-types-field';
import { eventTypesOf, SIGNING_ALGORITHMS } from './hook-events';
import type { OutgoingHookInput } from './use-outgoing-hooks';

const lines = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');

interface Props {
  readonly teamId: string;
  readonly channels: readonly Channel[];
  /** The bots the user may choose (those they manage). */
  readonly bots: readonly Bot[];
  /** Event types the user may pick (admin-only ones only for system admins). */
  readonly eventTypes: readonly string[];
  readonly initial?: OutgoingHook;
  readonly submitLabel: string;
  readonly pending: boolean;
  readonly error: unknown;
  onSubmit(input: OutgoingHookInput): void;
  onCancel?(): void;
}

/** Create or edit an outgoing webhook: what fires it (events, channel, trigger words, bot), where it calls and how it signs. */
export function OutgoingHookForm({ teamId, channels, bots, eventTypes, initial, submitLabel, pending, error, onSubmit, onCancel }: Props) {
  const [title, setTitle] = useState(initial?.display_name ?? '');
  const [description, setDescription] = useState(initial?.description ?? '');
  const [contentType, setContentType] = useState(initial?.content_type || 'application/x-www-form-urlencoded');
  const [channelId, setChannelId] = useState(initial?.channel_id ?? '');
  const [triggers, setTriggers] = useState((initial?.trigger_words ?? []).join('\n'));
  const [when, setWhen] = useState(initial?.trigger_when ?? 0);
  const [urls, setUrls] = useState((initial?.callback_urls ?? []).join('\n'));
  const [events, setEvents] = useState<readonly string[]>(() => eventTypesOf(initial));
  const [botUserId, setBotUserId] = useState(initial?.bot_user_id ?? '');
  const [algorithm, setAlgorithm] = useState<OutgoingHook['signing_algorithm']>(initial?.signing_algorithm || 'hmac-sha256');
  const [submitted, setSubmitted] = useState(false);
  const text = hookTextProblems(title, description);
  const needsTrigger = channelId === '' && botUserId === '' && lines(triggers).length === 0 ? 'Give trigger words, a channel, a bot, or more than one of them.' : undefined;
  const needsUrl = lines(urls).length === 0 ? 'At least one callback URL is needed.' : undefined;
  const needsEvent = events.length === 0 ? 'Choose at least one event.' : undefined;
  // A bot hook may watch a private channel the bot is in; other hooks only public ones.
  const channelChoices = channels.filter((c) => c.type === 'O' || (botUserId !== '' && c.type === 'P'));
  // A bot the user no longer manages stays listed while it is the hook's, so an edit does not change it silently.
  const current = initial?.bot_user_id && !bots.some((b) => b.user_id === initial.bot_user_id) ? [{ user_id: initial.bot_user_id, username: initial.bot_user_id, display_name: '' }] : [];
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (text.title || text.description || needsTrigger || needsUrl || needsEvent) return;
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
      event_types: events,
      bot_user_id: botUserId,
      signing_algorithm: algorithm,
    });
  };
  return (
    <form onSubmit={submit} noValidate aria-label={submitLabel}>
      <TextField label="Title" required value={title} onChange={(e) => setTitle(e.target.value)} hint={`Required; at most ${TITLE_MAX} characters (${title.length}/${TITLE_MAX}).`} problem={submitted || title.length > TITLE_MAX ? text.title : undefined} />
      <TextArea label="Description" value={description} onChange={(e) => setDescription(e.target.value)} hint={`Optional; at most ${DESCRIPTION_MAX} characters (${description.length}/${DESCRIPTION_MAX}).`} problem={text.description} />
      <EventTypesField available={eventTypes} value={events} onChange={setEvents} problem={submitted ? needsEvent : undefined} />
      <SelectField label="Content type" value={contentType} onChange={(e) => setContentType(e.target.value)} hint="How a posted message is sent to your callback URLs (other events are always JSON).">
        <option value="application/x-www-form-urlencoded">application/x-www-form-urlencoded</option>
        <option value="application/json">application/json</option>
      </SelectField>
      <SelectField label="Bot" value={botUserId} onChange={(e) => setBotUserId(e.target.value)} hint="With a bot, the webhook hears direct and group messages with the bot and mentions of it in its channels (private ones too), and replies as the bot.">
        <option value="">No bot (public channels only)</option>
        {[...current, ...bots].map((b) => (
          <option key={b.user_id} value={b.user_id}>
            @{b.username}
            {b.display_name ? ` (${b.display_name})` : ''}
          </option>
        ))}
      </SelectField>
      <SelectField label="Channel" value={channelId} onChange={(e) => setChannelId(e.target.value)} hint="Optional if trigger words or a bot are given; without a bot only public channels can fire outgoing webhooks.">
        <option value="">{botUserId ? 'The bot’s conversations and mentions' : 'Any public channel (trigger words only)'}</option>
        {channelChoices.map((c) => (
          <option key={c.id} value={c.id}>
            {c.display_name || c.name}
            {c.type === 'P' ? ' (private)' : ''}
          </option>
        ))}
      </SelectField>
      <TextArea label="Trigger words" value={triggers} onChange={(e) => setTriggers(e.target.value)} hint="One per line; optional if a channel or a bot is chosen." problem={submitted ? needsTrigger : undefined} />
      <SelectField label="Trigger when" value={String(when)} onChange={(e) => setWhen(Number(e.target.value))} hint="Applies only when trigger words are given.">
        <option value="0">The first word is exactly a trigger word</option>
        <option value="1">The first word starts with a trigger word</option>
      </SelectField>
      <TextArea label="Callback URLs" value={urls} onChange={(e) => setUrls(e.target.value)} hint="One per line; each receives a POST for every matching event." problem={submitted ? needsUrl : undefined} />
      <SelectField label="Signing algorithm" value={algorithm} onChange={(e) => setAlgorithm(e.target.value as OutgoingHook['signing_algorithm'])} hint="Every request carries a Standard Webhooks webhook-signature header made this way.">
        {SIGNING_ALGORITHMS.map((a) => (
          <option key={a.value} value={a.value}>
            {a.label}
          </option>
        ))}
      </SelectField>
      {initial?.signing_public_key ? <PublicKey value={initial.signing_public_key} /> : algorithm === 'ed25519' ? <p className="hint">The public key is made when you save; it is shown here and in the list.</p> : null}
      <FormButtons submitLabel={submitLabel} pending={pending} error={error} onCancel={onCancel} />
    </form>
  );
}

/** The Ed25519 public key (`whpk_…`): read-only, copyable; receivers verify `v1a` signatures with it. */
export function PublicKey({ value }: { value: string }) {
  return (
    <div className="field">
      <TextField label="Public key" readOnly value={value} className="mono" hint="Give it to your receiver to check v1a signatures; it is not a secret." />
      <CopyButton value={value} label="Copy public key" />
    </div>
  );
}
