import { useId, useRef, useState, type DragEvent, type FormEvent, type KeyboardEvent } from 'react';
import { ErrorText } from '../../ui/feedback';
import { PendingUploads } from '../files/pending-uploads';
import { useUploads } from '../files/use-uploads';

const hasFiles = (event: DragEvent) => Array.from(event.dataTransfer.types).includes('Files');

/**
 * The message box: Enter sends, Shift+Enter starts a new line. Files dropped on it (or picked with "Attach files")
 * upload at once and go with the next message as its `file_ids`.
 */
export function Composer({ label, channelId, pending, error, onSend }: { label: string; channelId: string; pending: boolean; error: unknown; onSend: (message: string, fileIds: readonly string[], done: () => void) => void }) {
  const id = useId();
  const [text, setText] = useState('');
  const [dragging, setDragging] = useState(false);
  const picker = useRef<HTMLInputElement>(null);
  const files = useUploads(channelId);
  const canSend = !pending && !files.uploading && (text.trim() !== '' || files.fileIds.length > 0);
  const send = () => {
    if (!canSend) return;
    onSend(text, files.fileIds, () => {
      setText('');
      files.clear();
    });
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
  const onDragOver = (event: DragEvent) => {
    if (!hasFiles(event)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
    setDragging(true);
  };
  const onDrop = (event: DragEvent) => {
    // Dropped text goes into the box as usual; only files are taken over.
    if (!hasFiles(event)) return;
    event.preventDefault();
    setDragging(false);
    files.add(Array.from(event.dataTransfer.files));
  };
  return (
    <form className={dragging ? 'composer dragging' : 'composer'} onSubmit={submit} onDragOver={onDragOver} onDragLeave={() => setDragging(false)} onDrop={onDrop}>
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <textarea id={id} value={text} placeholder={label} onChange={(e) => setText(e.target.value)} onKeyDown={onKeyDown} rows={2} aria-describedby={`${id}-hint`} />
      <p id={`${id}-hint`} className="hint">
        Markdown works. Enter sends; Shift+Enter starts a new line; a message starting with / runs a slash command. Drop files here to attach them.
      </p>
      <PendingUploads uploads={files.uploads} onRemove={files.remove} />
      <ErrorText error={error} />
      <div className="inline">
        <button type="submit" className="primary" disabled={!canSend}>
          Send
        </button>
        <button type="button" onClick={() => picker.current?.click()}>
          Attach files
        </button>
        <input
          ref={picker}
          type="file"
          multiple
          hidden
          tabIndex={-1}
          aria-label="Files to attach"
          onChange={(e) => {
            files.add(Array.from(e.target.files ?? []));
            e.target.value = '';
          }}
        />
      </div>
    </form>
  );
}
