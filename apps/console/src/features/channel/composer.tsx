import { useId, useState, type FormEvent, type KeyboardEvent } from 'react';
import { ErrorText } from '../../ui/feedback';

/** The message box: Enter sends, Shift+Enter starts a new line. */
export function Composer({ label, pending, error, onSend }: { label: string; pending: boolean; error: unknown; onSend: (message: string, done: () => void) => void }) {
  const id = useId();
  const [text, setText] = useState('');
  const send = () => {
    if (text.trim() !== '') onSend(text, () => setText(''));
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    send();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      send();
    }
  };
  return (
    <form className="composer" onSubmit={submit}>
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <textarea id={id} value={text} placeholder={label} onChange={(e) => setText(e.target.value)} onKeyDown={onKeyDown} rows={2} aria-describedby={`${id}-hint`} />
      <p id={`${id}-hint`} className="hint">
        Markdown works. Enter sends; Shift+Enter starts a new line; a message starting with / runs a slash command.
      </p>
      <ErrorText error={error} />
      <button type="submit" className="primary" disabled={pending || text.trim() === ''}>
        Send
      </button>
    </form>
  );
}
