import { counter, histogram } from './registry';

const uploads = () => counter('switchyard_file_uploads_total', 'Files stored through POST /api/v4/files', []);
const bytes = () => counter('switchyard_file_bytes_stored_total', 'Bytes of uploaded files stored (originals, not thumbnails or previews)', []);
const previews = () => histogram('switchyard_file_preview_seconds', 'Time to make an image\'s thumbnail, preview and mini preview (sharp, on the thread pool)', [], [0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.25, 0.5, 1, 2.5]);

/** Files (posts' upload route): uploads, bytes stored, preview time. */
export const fileMetrics = {
  stored(size: number): void {
    uploads().inc();
    bytes().inc(size);
  },
  previewSeconds(seconds: number): void {
    previews().observe(seconds);
  },
};
