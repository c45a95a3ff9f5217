import { useMemo } from 'react';
import { renderMarkdown } from './render-markdown';

/** Markdown shown as a person expects it (sanitised HTML; see renderMarkdown). */
export function Markdown({ text, inline = false, className }: { text: string; inline?: boolean; className?: string }) {
  const html = useMemo(() => renderMarkdown(text, { inline }), [text, inline]);
  const classes = ['markdown', className].filter(Boolean).join(' ');
  return inline ? <span className={classes} dangerouslySetInnerHTML={{ __html: html }} /> : <div className={classes} dangerouslySetInnerHTML={{ __html: html }} />;
}
