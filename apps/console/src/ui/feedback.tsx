import type { ReactNode } from 'react';
import { errorText } from '../api/error-text';

/** An API failure in words, announced to screen readers, next to the control that caused it. */
export function ErrorText({ error, id }: { error: unknown; id?: string }) {
  if (error === null || error === undefined) return null;
  return (
    <p className="error" role="alert" id={id}>
      {errorText(error)}
    </p>
  );
}

/** A visible, announced "working" state for calls that take a moment. */
export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <p className="loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      {label}
    </p>
  );
}

/** What to do when a list is empty. */
export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="empty">
      <p className="empty-title">{title}</p>
      {children ? <div>{children}</div> : null}
    </div>
  );
}

/** The BOT label: shown wherever a bot or a webhook post appears; nothing can turn it off. */
export function BotLabel() {
  return <span className="bot-label">BOT</span>;
}
