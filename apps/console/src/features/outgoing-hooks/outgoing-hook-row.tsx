import { useState } from 'react';
import type { Bot, Channel, OutgoingHook } from '../../api/types';
import { CopyButton } from '../../ui/copy-button';
import { ErrorText } from '../../ui/feedback';
import { DeliveryLog } from './delivery-log';
import { eventTypesOf } from './hook-events';
import { OutgoingHookForm, PublicKey } from './outgoing-hook-form';
import { useOutgoingHookActions } from './use-outgoing-hooks';

function Secret({ label, value, onRegenerate, pending, hint }: { label: string; value: string; onRegenerate: () => void; pending: boolean; hint: string }) {
  return (
    <div className="secret">
      <span className="inline">
        <span>{label}:</span>
        <code className="mono" aria-label={label}>
          {value}
        </code>
        <CopyButton value={value} label={`Copy ${label.toLowerCase()}`} />
        <button type="button" onClick={onRegenerate} disabled={pending}>
          Regenerate {label.toLowerCase()}
        </button>
      </span>
      <p className="hint">{hint}</p>
    </div>
  );
}

interface Props {
  readonly hook: OutgoingHook;
  readonly teamId: string;
  readonly channels: readonly Channel[];
  readonly bots: readonly Bot[];
  readonly eventTypes: readonly string[];
}

/** One outgoing webhook: what fires it, where it calls, its token, how it signs, and its delivery log. */
export function OutgoingHookRow({ hook, teamId, channels, bots, eventTypes }: Props) {
  const { update, remove, regenToken, regenSecret, enable } = useOutgoingHookActions();
  const [editing, setEditing] = useState(false);
  const [showLog, setShowLog] = useState(false);
  const channel = channels.find((c) => c.id === hook.channel_id);
  const bot = hook.bot_user_id ? bots.find((b) => b.user_id === hook.bot_user_id) : undefined;
  const title = hook.display_name || '(untitled)';
  const disabled = (hook.disabled_at ?? 0) > 0;
  const ed25519 = hook.signing_algorithm === 'ed25519';
  return (
    <li className="row" aria-label={title}>
      <div className="row-main">
        <span className="name">
          {title}
          {disabled ? <span className="badge">Disabled (a callback answered 410 Gone)</span> : null}
        </span>
        {hook.description ? <span className="muted">{hook.description}</span> : null}
        <span className="muted">
          {hook.trigger_words.length > 0 ? `Fires when the first word ${hook.trigger_when === 1 ? 'starts with' : 'is'} ${hook.trigger_words.map((w) => `“${w}”`).join(' or ')}` : 'Fires on every message'}
          {hook.channel_id ? ` in ~${channel?.name ?? 'a channel'}` : hook.bot_user_id ? ' where the bot is addressed' : ' in any public channel'}; calls {hook.callback_urls.join(', ')} ({hook.content_type || 'application/x-www-form-urlencoded'}).
        </span>
        <span className="muted">Hears: {eventTypesOf(hook).join(', ')}</span>
        {hook.bot_user_id ? <span className="muted">Replies as @{bot?.username ?? hook.bot_user_id}</span> : null}
        <Secret label="Token" value={hook.token} onRegenerate={() => regenToken.mutate(hook.id)} pending={regenToken.isPending} hint="Sent in every request; your receiver compares it with its copy." />
        {ed25519 && hook.signing_public_key ? (
          <div className="secret">
            <PublicKey value={hook.signing_public_key} />
            <button type="button" onClick={() => regenSecret.mutate(hook.id)} disabled={regenSecret.isPending}>
              Regenerate key pair
            </button>
            <p className="hint">Signs every request with Ed25519 (v1a in the webhook-signature header); during a rotation both keys sign.</p>
          </div>
        ) : hook.signing_secret ? (
          <Secret label="Signing secret" value={hook.signing_secret} onRegenerate={() => regenSecret.mutate(hook.id)} pending={regenSecret.isPending} hint="Signs every request (Standard Webhooks webhook-signature header, v1)." />
        ) : null}
      </div>
      <div className="row-actions">
        <button type="button" onClick={() => setShowLog((s) => !s)} aria-expanded={showLog}>
          Delivery log
        </button>
        {disabled ? (
          <button type="button" onClick={() => enable.mutate(hook.id)} disabled={enable.isPending}>
            Enable
          </button>
        ) : null}
        <button type="button" onClick={() => setEditing((e) => !e)} aria-expanded={editing}>
          Edit
        </button>
        <button type="button" className="danger" onClick={() => remove.mutate(hook.id)} disabled={remove.isPending}>
          Delete
        </button>
      </div>
      <ErrorText error={regenToken.error ?? regenSecret.error ?? enable.error ?? remove.error} />
      {editing ? (
        <div className="details">
          <OutgoingHookForm
            teamId={teamId}
            channels={channels}
            bots={bots}
            eventTypes={eventTypes}
            initial={hook}
            submitLabel="Save changes"
            pending={update.isPending}
            error={update.error}
            onSubmit={(changes) => update.mutate({ hook, changes }, { onSuccess: () => setEditing(false) })}
            onCancel={() => setEditing(false)}
          />
        </div>
      ) : null}
      {showLog ? <DeliveryLog hookId={hook.id} /> : null}
    </li>
  );
}
