import type { Dialog } from './dialog-problems';

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.host !== '';
  } catch {
    return false;
  }
}

/**
 * The URLs an open dialog lets its user's client reach besides its submit URL: `source_url` for a
 * field refresh (11.1) and the `data_source_url` of each dynamic select for `dialogs/lookup` (11.0).
 * Only http(s) URLs count (Switchyard runs no plugins, so a `/plugins/` path has nowhere to go).
 */
export function dialogUrls(dialog: Dialog): { sourceUrl: string; lookupUrls: string[] } {
  const sourceUrl = dialog.source_url !== undefined && isHttpUrl(dialog.source_url) ? dialog.source_url : '';
  const lookupUrls = new Set<string>();
  for (const element of dialog.elements ?? []) {
    if (element?.type === 'select' && element.data_source === 'dynamic' && element.data_source_url && isHttpUrl(element.data_source_url)) lookupUrls.add(element.data_source_url);
  }
  return { sourceUrl, lookupUrls: [...lookupUrls] };
}
