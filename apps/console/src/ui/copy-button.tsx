import { useState } from 'react';

/** Copies a value to the clipboard and says so (falls back to selecting the text when the clipboard is refused). */
export function CopyButton({ value, label }: { value: string; label: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setState('copied');
    } catch {
      setState('failed');
    }
  };
  return (
    <span className="copy">
      <button type="button" onClick={() => void copy()}>
        {label}
      </button>
      <span role="status" aria-live="polite" className="copy-status">
        {state === 'copied' ? 'Copied.' : state === 'failed' ? 'Could not copy; select the text and copy it by hand.' : ''}
      </span>
    </span>
  );
}
