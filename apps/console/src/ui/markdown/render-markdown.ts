import DOMPurify from 'dompurify';
import { Marked, type TokenizerAndRendererExtension } from 'marked';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
}

/** `@username`, `@channel`, `@here`, `@all`: highlighted as the reference does. */
const mentions: TokenizerAndRendererExtension = {
  name: 'mention',
  level: 'inline',
  start: (src: string) => {
    const i = src.search(/(^|[^\w.@])@[a-z]/i);
    return i < 0 ? undefined : src[i] === '@' ? i : i + 1;
  },
  tokenizer(src: string) {
    const match = /^@([a-z0-9][a-z0-9._-]*[a-z0-9_-]|[a-z0-9])/i.exec(src);
    if (!match) return undefined;
    return { type: 'mention', raw: match[0], name: match[1] ?? '' };
  },
  renderer(token) {
    return `<span class="mention">@${escapeHtml(String(token.name))}</span>`;
  },
};

const marked = new Marked({ gfm: true, breaks: true, async: false }, { extensions: [mentions] });

let hooked = false;
function purifier(): typeof DOMPurify | undefined {
  if (!DOMPurify.isSupported) return undefined;
  if (!hooked) {
    // Links open elsewhere and tell the target nothing about this page.
    DOMPurify.addHook('afterSanitizeAttributes', (node) => {
      if (node.tagName === 'A' && node.getAttribute('href')) {
        node.setAttribute('target', '_blank');
        node.setAttribute('rel', 'noopener noreferrer nofollow');
      }
    });
    hooked = true;
  }
  return DOMPurify;
}

/**
 * Markdown (GFM, line breaks kept, mentions) to HTML that is safe to insert: marked renders it, DOMPurify removes
 * scripts, event handlers, `javascript:` links, forms and frames. Where no DOM is available to sanitise with
 * (server-side rendering in unit tests), the text is escaped instead, never inserted raw.
 */
export function renderMarkdown(text: string, options: { inline?: boolean } = {}): string {
  const purify = purifier();
  if (!purify) return escapeHtml(text).replace(/\n/g, '<br>');
  const html = options.inline ? marked.parseInline(text, { async: false }) : marked.parse(text, { async: false });
  return purify.sanitize(html, { FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select', 'iframe', 'object', 'embed'], FORBID_ATTR: ['style'] });
}
