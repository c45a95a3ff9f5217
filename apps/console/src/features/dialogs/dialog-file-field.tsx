import { useId, useState } from 'react';
import { describedBy, FieldNotes } from '../../ui/field';
import type { DialogElement } from './dialog-types';

export type UploadFiles = (files: readonly File[]) => Promise<string[]>;

interface Props {
  readonly element: DialogElement;
  readonly label: string;
  readonly hint: string | undefined;
  readonly problem: string | undefined;
  readonly upload: UploadFiles;
  readonly onChange: (value: string) => void;
}

/**
 * A dialog `file` element (11.10): the chosen files are uploaded to the channel at once (`POST /files`),
 * and the element's value is their ids, comma-separated; the submission sends them as `file_ids` too.
 */
export function DialogFileField({ element, label, hint, problem, upload, onChange }: Props) {
  const id = useId();
  const [state, setState] = useState<'idle' | 'uploading' | 'failed'>('idle');
  const [names, setNames] = useState<string[]>([]);
  const note = state === 'uploading' ? 'Uploading…' : state === 'failed' ? 'The upload failed; choose the files again.' : names.length > 0 ? `Attached: ${names.join(', ')}` : hint;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="file"
        multiple={element.allow_multiple === true}
        aria-describedby={describedBy(id, note, problem)}
        aria-invalid={problem ? true : undefined}
        onChange={(e) => {
          const files = [...(e.target.files ?? [])].slice(0, element.allow_multiple ? 10 : 1);
          if (files.length === 0) return;
          setState('uploading');
          upload(files).then(
            (ids) => {
              setNames(files.map((f) => f.name));
              setState('idle');
              onChange(ids.join(','));
            },
            () => {
              setState('failed');
              onChange('');
            },
          );
        }}
      />
      <FieldNotes id={id} hint={note} problem={problem} />
    </div>
  );
}
