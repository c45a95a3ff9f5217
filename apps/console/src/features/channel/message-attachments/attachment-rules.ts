export const FOOTER_MAX = 300;

/** The bar colour: a HEX value only (#RGB or #RRGGBB); named colours such as "good" are not supported for the bar. */
export function barColor(color: string | undefined): string | undefined {
  return color !== undefined && /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.test(color.trim()) ? color.trim() : undefined;
}

/** A footer over 300 characters is cut to 300, the last being an ellipsis. */
export function truncateFooter(footer: string): string {
  const chars = [...footer];
  return chars.length > FOOTER_MAX ? `${chars.slice(0, FOOTER_MAX - 1).join('')}…` : footer;
}

/** Fields in rows: consecutive short fields two by two, a long field alone. */
export function fieldRows<T extends { readonly short?: boolean }>(fields: readonly T[]): T[][] {
  const rows: T[][] = [];
  let pending: T[] = [];
  for (const field of fields) {
    if (field.short === true) {
      pending.push(field);
      if (pending.length === 2) {
        rows.push(pending);
        pending = [];
      }
    } else {
      if (pending.length > 0) rows.push(pending);
      pending = [];
      rows.push([field]);
    }
  }
  if (pending.length > 0) rows.push(pending);
  return rows;
}

const NAMED_STYLES = new Set(['default', 'primary', 'success', 'good', 'warning', 'danger']);

/** A button's look: one of the named styles, or a HEX colour; anything else is the default style. */
export function buttonStyle(style: string | undefined): { name: string; color?: string } {
  const s = (style ?? '').trim();
  if (NAMED_STYLES.has(s.toLowerCase())) return { name: s.toLowerCase() === 'good' ? 'success' : s.toLowerCase() };
  if (/^#([0-9a-f]{3}|[0-9a-f]{6})$/i.test(s)) return { name: 'custom', color: s };
  return { name: 'default' };
}

/** Text long enough to collapse behind "Show more" (many lines or many characters). */
export function isLongText(text: string): boolean {
  return text.length > 700 || text.split('\n').length > 8;
}

/** An http(s) address, or undefined (no javascript: or data: links or images from attachment JSON). */
export function safeUrl(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.toString() : undefined;
  } catch {
    return undefined;
  }
}
