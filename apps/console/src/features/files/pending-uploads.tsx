import { errorText } from '../../api/error-text';
import { formatSize } from './file-rules';
import type { PendingUpload } from './uploads-state';

/** The files waiting to go with the next message: uploading, ready, or refused (with the server's reason). */
export function PendingUploads({ uploads, onRemove }: { uploads: readonly PendingUpload[]; onRemove: (clientId: string) => void }) {
  if (uploads.length === 0) return null;
  return (
    <ul className="pending-uploads" aria-label="Files to send">
      {uploads.map((u) => (
        <li key={u.clientId} className={u.state === 'failed' ? 'upload failed' : 'upload'}>
          <span className="name">{u.name}</span> <span className="muted">{formatSize(u.size)}</span>{' '}
          {u.state === 'uploading' ? (
            <span role="status" className="muted">
              Uploading…
            </span>
          ) : null}
          {u.state === 'done' ? <span className="muted">Ready</span> : null}
          {u.state === 'failed' ? (
            <span className="error" role="alert">
              Not uploaded: {errorText(u.error)}
            </span>
          ) : null}{' '}
          <button type="button" className="link" onClick={() => onRemove(u.clientId)} aria-label={`Remove ${u.name}`}>
            Remove
          </button>
        </li>
      ))}
    </ul>
  );
}
