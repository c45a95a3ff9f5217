import { useId, useState, type ReactNode } from 'react';

/** Long content collapsed to a few lines with a "Show more" / "Show less" control. */
export function ShowMore({ long, children }: { long: boolean; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  if (!long) return <>{children}</>;
  return (
    <div className="show-more">
      <div id={id} className={open ? 'show-more-body open' : 'show-more-body'}>
        {children}
      </div>
      <button type="button" className="link" aria-expanded={open} aria-controls={id} onClick={() => setOpen((o) => !o)}>
        {open ? 'Show less' : 'Show more'}
      </button>
    </div>
  );
}
