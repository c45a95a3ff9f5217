import { useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes } from 'react';

interface FieldFrame {
  readonly label: string;
  /** One sentence under the control: what it is for, or the rule it must follow. */
  readonly hint?: ReactNode;
  /** A problem with the value, in words, tied to the control with aria-describedby. */
  readonly problem?: string | undefined;
}

/** The hint and the problem under a control (ids `<id>-hint`, `<id>-problem` for aria-describedby). */
export function FieldNotes({ id, hint, problem }: { id: string; hint?: ReactNode; problem?: string | undefined }) {
  return (
    <>
      {hint ? (
        <p className="hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      {problem ? (
        <p className="error" id={`${id}-problem`} role="alert">
          {problem}
        </p>
      ) : null}
    </>
  );
}

function Frame({ id, label, hint, problem, children }: FieldFrame & { id: string; children: ReactNode }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children}
      <FieldNotes id={id} hint={hint} problem={problem} />
    </div>
  );
}

export function describedBy(id: string, hint: unknown, problem: unknown): string | undefined {
  const ids = [hint ? `${id}-hint` : '', problem ? `${id}-problem` : ''].filter(Boolean);
  return ids.length > 0 ? ids.join(' ') : undefined;
}

export function TextField({ label, hint, problem, ...input }: FieldFrame & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  return (
    <Frame id={id} label={label} hint={hint} problem={problem}>
      <input id={id} aria-invalid={problem ? true : undefined} aria-describedby={describedBy(id, hint, problem)} {...input} />
    </Frame>
  );
}

export function TextArea({ label, hint, problem, ...input }: FieldFrame & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const id = useId();
  return (
    <Frame id={id} label={label} hint={hint} problem={problem}>
      <textarea id={id} aria-invalid={problem ? true : undefined} aria-describedby={describedBy(id, hint, problem)} {...input} />
    </Frame>
  );
}

export function SelectField({ label, hint, problem, children, ...input }: FieldFrame & SelectHTMLAttributes<HTMLSelectElement> & { children: ReactNode }) {
  const id = useId();
  return (
    <Frame id={id} label={label} hint={hint} problem={problem}>
      <select id={id} aria-invalid={problem ? true : undefined} aria-describedby={describedBy(id, hint, problem)} {...input}>
        {children}
      </select>
    </Frame>
  );
}

export function CheckboxField({ label, hint, ...input }: Omit<FieldFrame, 'problem'> & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  return (
    <div className="field checkbox">
      <input type="checkbox" id={id} aria-describedby={hint ? `${id}-hint` : undefined} {...input} />
      <label htmlFor={id}>{label}</label>
      {hint ? (
        <p className="hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
    </div>
  );
}
