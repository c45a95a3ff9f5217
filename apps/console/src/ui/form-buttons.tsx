import { ErrorText } from './feedback';

/** The end of a create/edit form: the failed call in words, the submit button (busy while saving), Cancel when editing. */
export function FormButtons({ submitLabel, pending, error, onCancel }: { submitLabel: string; pending: boolean; error: unknown; onCancel?: (() => void) | undefined }) {
  return (
    <>
      <ErrorText error={error} />
      <div className="inline">
        <button type="submit" className="primary" disabled={pending}>
          {pending ? 'Saving…' : submitLabel}
        </button>
        {onCancel ? (
          <button type="button" onClick={onCancel}>
            Cancel
          </button>
        ) : null}
      </div>
    </>
  );
}
