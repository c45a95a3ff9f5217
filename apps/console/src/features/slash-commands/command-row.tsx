import { useState } from 'react';
import { CopyButton } from '../../ui/copy-button';
import { ErrorText } from '../../ui/feedback';
import { CommandForm } from './command-form';
import type { Command } from './command-rules';
import { useCommandActions } from './use-commands';

/** One custom command: trigger, what it calls, its token (for whom the reference shows it), edit, delete. */
export function CommandRow({ command, showToken }: { command: Command; showToken: boolean }) {
  const { update, remove, regenToken } = useCommandActions(command.team_id);
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const title = command.display_name || `/${command.trigger}`;
  return (
    <li className="row" aria-label={title}>
      <div className="row-main">
        <span className="name">
          {title} <code className="mono">/{command.trigger}</code>
        </span>
        {command.description ? <span className="muted">{command.description}</span> : null}
        {command.url ? (
          <span className="muted">
            {command.method === 'G' ? 'GET' : 'POST'} {command.url}
          </span>
        ) : null}
        {showToken && command.token ? (
          <div className="secret">
            <span className="inline">
              <span>Token:</span>
              <code className="mono" aria-label="Token">
                {command.token}
              </code>
              <CopyButton value={command.token} label="Copy token" />
              <button type="button" onClick={() => regenToken.mutate(command.id)} disabled={regenToken.isPending}>
                Regenerate token
              </button>
            </span>
            <p className="hint">Sent as “Authorization: Token …” with every request; your service compares it with its copy.</p>
          </div>
        ) : null}
      </div>
      <div className="row-actions">
        <button type="button" onClick={() => setEditing((e) => !e)} aria-expanded={editing}>
          Edit
        </button>
        {confirming ? (
          <>
            <button type="button" className="danger" onClick={() => remove.mutate(command.id)} disabled={remove.isPending}>
              Yes, delete /{command.trigger}
            </button>
            <button type="button" onClick={() => setConfirming(false)}>
              Keep it
            </button>
          </>
        ) : (
          <button type="button" className="danger" onClick={() => setConfirming(true)}>
            Delete
          </button>
        )}
      </div>
      <ErrorText error={regenToken.error ?? remove.error} />
      {editing ? (
        <div className="details">
          <CommandForm
            initial={command}
            submitLabel="Save changes"
            pending={update.isPending}
            error={update.error}
            onSubmit={(changes) => update.mutate({ command, changes }, { onSuccess: () => setEditing(false) })}
            onCancel={() => setEditing(false)}
          />
        </div>
      ) : null}
    </li>
  );
}
