import type { FileInfo } from '../../api/types';
import { fileUrl, formatSize, showsInline } from './file-rules';

/** A post's files: images inline (the server's preview, linking to the original), everything else as a download link. */
export function PostFiles({ files }: { files: readonly FileInfo[] }) {
  if (files.length === 0) return null;
  const images = files.filter(showsInline);
  const others = files.filter((f) => !showsInline(f));
  return (
    <div className="post-files">
      {images.length > 0 ? (
        <ul className="post-images" aria-label="Images">
          {images.map((f) => (
            <li key={f.id}>
              <a href={fileUrl(f.id)} target="_blank" rel="noopener noreferrer" title={`Open ${f.name}`}>
                <img src={fileUrl(f.id, 'preview')} alt={f.name} loading="lazy" {...(f.width && f.height ? { width: Math.min(f.width, 360), height: Math.round((Math.min(f.width, 360) / f.width) * f.height) } : {})} />
              </a>
            </li>
          ))}
        </ul>
      ) : null}
      {others.length > 0 ? (
        <ul className="post-downloads" aria-label="Files">
          {others.map((f) => (
            <li key={f.id}>
              <a href={fileUrl(f.id, 'download')} download={f.name}>
                {f.name}
              </a>{' '}
              <span className="muted">{formatSize(f.size)}</span>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
