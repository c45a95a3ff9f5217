import type { Deps } from '../ports';
import type { FileStore, ImageProcessor } from './file-ports';

/** What the file use cases need beyond posts' deps. */
export interface FilesMetrics {
  stored(bytes: number): void;
  previewSeconds(seconds: number): void;
}

export interface FilesDeps extends Deps {
  /** The store the current FileSettings name (rebuilt when they change). */
  readonly fileStore: () => FileStore;
  readonly images: ImageProcessor;
  readonly metrics?: FilesMetrics;
}
