import { useId } from 'react';
import { CopyButton } from '../../ui/copy-button';

/** A new access token, shown this once: a read-only field, a copy button, the warning, and Done to forget it. */
export function TokenReveal({ token, owner, onDone }: { token: string; owner: string; onDone: () => void }) {
  const id = useId();
  return (
    <section className="token-reveal" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Access token for @{owner}</h3>
      <p className="warning" role="note">
        Copy this token now. It will not be shown again; if it is lost, issue a new one from the bot list.
      </p>
      <label htmlFor={id}>Token</label>
      <div className="inline">
        <input id={id} readOnly value={token} className="mono" onFocus={(e) => e.currentTarget.select()} />
        <CopyButton value={token} label="Copy token" />
      </div>
      <button type="button" onClick={onDone}>
        Done, I have copied it
      </button>
    </section>
  );
}
