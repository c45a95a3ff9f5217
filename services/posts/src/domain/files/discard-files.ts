import type { Deps } from '../ports';
import type { FilesDeps } from './files-deps';

/**
 * Drops files that `userId` uploaded and no post took (an incoming hook's files whose post was refused):
 * their infos are soft-deleted (one conditional write each: an attach racing it wins or loses whole), and
 * their bytes, thumbnail and preview removed when the store is at hand. Returns how many were dropped.
 */
export async function discardUnattachedFiles(deps: Pick<Deps, 'files' | 'clock'> & { readonly fileStore?: FilesDeps['fileStore'] }, userId: string, fileIds: readonly string[]): Promise<number> {
  const discarded = await deps.files.discardUnattached([...new Set(fileIds)], userId, deps.clock.now());
  if (deps.fileStore && discarded.length > 0) {
    const store = deps.fileStore();
    for (const id of discarded) {
      const info = await deps.files.findById(id);
      if (!info) continue;
      await Promise.all([info.path, info.thumbnail_path, info.preview_path].filter((k) => k !== '').map((k) => store.remove(k).catch(() => undefined)));
    }
  }
  return discarded.length;
}
