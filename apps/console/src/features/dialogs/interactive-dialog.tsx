import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { ErrorText } from '../../ui/feedback';
import { Markdown } from '../../ui/markdown/markdown';
import type { DataSources } from '../data-sources/data-sources';
import { DialogElementField } from './dialog-element';
import type { UploadFiles } from './dialog-file-field';
import type { Lookup } from './dynamic-select';
import { dialogProblems, initialValues, supportedElements } from './dialog-rules';
import type { Dialog, DialogValues } from './dialog-types';

interface Props {
  readonly dialog: Dialog;
  readonly sources: DataSources;
  readonly pending: boolean;
  /** Problems the integration reported, by element name. */
  readonly serverErrors: Readonly<Record<string, string>>;
  /** The integration's general error, or a failed call. */
  readonly error: unknown;
  readonly onSubmit: (values: DialogValues) => void;
  readonly onCancel: () => void;
  /** Options of a dynamic select, for what the user typed (`dialogs/lookup`). */
  readonly lookup?: Lookup;
  /** Uploads the files of a `file` element (to the dialog's channel). */
  readonly upload?: UploadFiles;
  /** A field with `refresh` changed (11.1): the values so far and that field's name. */
  readonly onRefresh?: (values: DialogValues, field: string) => void;
  /** Values to start from instead of the defaults (a refreshed or next form keeps those of fields with the same name). */
  readonly startValues?: DialogValues;
}

const noOptions: Lookup = async () => [];
const noUpload: UploadFiles = async () => [];

/**
 * An interactive dialog as a modal (the browser's own `<dialog>`: focus is kept inside, Escape cancels):
 * title, icon, introduction (Markdown), one field per element, Cancel and the submit label. Values are
 * checked here first (required, lengths, subtypes, options); the integration's own errors show inline too.
 */
export function InteractiveDialog({ dialog, sources, pending, serverErrors, error, onSubmit, onCancel, lookup = noOptions, upload = noUpload, onRefresh, startValues }: Props) {
  const titleId = useId();
  const ref = useRef<HTMLDialogElement>(null);
  const elements = supportedElements(dialog.elements);
  const [values, setValues] = useState<DialogValues>(() => {
    const defaults = initialValues(elements);
    const kept = Object.fromEntries(Object.entries(startValues ?? {}).filter(([name]) => name in defaults));
    return { ...defaults, ...kept };
  });
  const [checked, setChecked] = useState(false);
  useEffect(() => {
    const node = ref.current;
    if (node && !node.open) node.showModal();
  }, []);
  const problems = checked ? dialogProblems(elements, values) : {};
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setChecked(true);
    if (Object.keys(dialogProblems(elements, values)).length === 0) onSubmit(values);
  };
  return (
    <dialog
      ref={ref}
      className="interactive-dialog"
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault();
        onCancel();
      }}
    >
      <form onSubmit={submit} noValidate>
        <header className="dialog-header">
          {dialog.icon_url ? <img src={dialog.icon_url} alt="" width={24} height={24} /> : null}
          <h2 id={titleId}>{dialog.title || 'Dialog'}</h2>
        </header>
        {dialog.introduction_text ? <Markdown text={dialog.introduction_text} /> : null}
        {elements.map((element) => (
          <DialogElementField
            key={element.name}
            element={element}
            value={values[element.name]}
            problem={problems[element.name] ?? serverErrors[element.name]}
            sources={sources}
            lookup={lookup}
            upload={upload}
            onChange={(value) => {
              const next = { ...values, [element.name]: value };
              setValues(next);
              if (element.refresh && onRefresh) onRefresh(next, element.name);
            }}
          />
        ))}
        <ErrorText error={error} />
        <div className="dialog-buttons">
          <button type="button" onClick={onCancel} disabled={pending}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={pending}>
            {pending ? 'Sending…' : dialog.submit_label || 'Submit'}
          </button>
        </div>
      </form>
    </dialog>
  );
}
