import { useState } from 'react';
import type { Channel, IncomingHook } from '../../api/types';
import { CopyButton } from '../../ui/copy-button';
import { ErrorText } from '../../ui/feedback';
import { HookTransformPanel } from './hook-transform-panel';
import { IncomingHookForm } from './incoming-hook-form';
import { hookUrl, useIncomingHookActions } from './use-incoming-hooks';

/** One incoming webhook: its address with copy, a test message, edit and delete. */
export function IncomingHookRow({ hook, channels }: { hook: IncomingHook; channels: readonly Channel[] }) {
  const { update, remove, sendTest } = useIncomingHookActions();
  const [editing, setEditing] = useState(false);
  const [transforming, setTransforming] = useState(false);
  const channel = channels.find((c) => c.id === hook.channel_id);
  const url = hookUrl(hook);
  const title = hook.display_name || '(untitled)';
  return (
    <li className="row" aria-label={title}>
      <div className="row-main">
        <span className="name">{title}</span>
        {hook.description ? <span className="muted">{hook.description}</span> : null}
        <span className="muted">
          Posts to {channel ? `~${channel.name}` : 'a channel you are not in'}
          {hook.channel_locked ? ' (locked)' : ''}
        </span>
        <span className="inline">
          <code className="mono url" aria-label="Webhook URL">
            {url}
          </code>
          <CopyButton value={url} label="Copy URL" />
        </span>
      </div>
      <div className="row-actions">
        <button type="button" onClick={() => sendTest.mutate(hook)} disabled={sendTest.isPending}>
          {sendTest.isPending ? 'Sending…' : 'Send test message'}
        </button>
        <button type="button" onClick={() => setEditing((e) => !e)} aria-expanded={editing}>
          Edit
        </button>
        <button type="button" onClick={() => setTransforming((t) => !t)} aria-expanded={transforming}>
          Transform
        </button>
        <button type="button" className="danger" onClick={() => remove.mutate(hook.id)} disabled={remove.isPending}>
          Delete
        </button>
      </div>
      {sendTest.isSuccess ? <p role="status">Test message sent to {channel ? `~${channel.name}` : 'the channel'}.</p> : null}
      <ErrorText error={sendTest.error ?? remove.error} />
      {transforming ? (
        <div className="details">
          <HookTransformPanel hook={hook} />
        </div>
      ) : null}
      {editing ? (
        <div className="details">
          <IncomingHookForm
            channels={channels}
            initial={hook}
            submitLabel="Save changes"
            pending={update.isPending}
            error={update.error}
            onSubmit={(changes) => update.mutate({ hook, changes }, { onSuccess: () => setEditing(false) })}
            onCancel={() => setEditing(false)}
          />
        </div>
      ) : null}
    </li>
  );
}
