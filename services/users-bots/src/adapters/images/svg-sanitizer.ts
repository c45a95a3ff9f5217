import type { DOMPurify } from 'dompurify';

const SVG_NS = 'http://www.w3.org/2000/svg';

/** Elements removed on top of DOMPurify's SVG profile: nothing that embeds HTML, styles or links. */
const FORBID_TAGS = ['foreignObject', 'style', 'a', 'script', 'iframe', 'object', 'embed'];

/** A reference outside the document: any `url(...)` not starting with `#`. */
const OUTSIDE_URL = /url\s*\(\s*(?!['"]?\s*#)/i;

interface Sanitizer {
  readonly purify: DOMPurify;
  readonly parseXml: (text: string) => Document;
  readonly serialize: (node: Node) => string;
}

let loading: Promise<Sanitizer> | undefined;

const loadSanitizer = async (): Promise<Sanitizer> => {
  const [{ JSDOM }, { default: createDOMPurify }] = await Promise.all([import('jsdom'), import('dompurify')]);
  const { window } = new JSDOM('');
  const purify = createDOMPurify(window as unknown as Parameters<typeof createDOMPurify>[0]);
  purify.addHook('uponSanitizeAttribute', (_node, data) => {
    const name = data.attrName.toLowerCase();
    // Only same-document references (#id) may stay: no fetches, no javascript: links.
    if ((name === 'href' || name.endsWith(':href')) && !data.attrValue.trim().startsWith('#')) data.keepAttr = false;
    if (OUTSIDE_URL.test(data.attrValue) || /@import|expression\s*\(/i.test(data.attrValue)) data.keepAttr = false;
  });
  const parser = new window.DOMParser();
  const serializer = new window.XMLSerializer();
  return {
    purify,
    parseXml: (text) => parser.parseFromString(text, 'image/svg+xml'),
    serialize: (node) => serializer.serializeToString(node),
  };
};

/** DOMPurify on a jsdom window, made once on first use (so processes that never see an SVG never load jsdom). */
function sanitizer(): Promise<Sanitizer> {
  if (!loading) loading = loadSanitizer();
  return loading;
}

/**
 * The SVG with what could run or fetch removed, or undefined when the bytes are not a well-formed SVG
 * document. Steps: refuse a DOCTYPE (entity expansion); parse as XML, whose root must be `<svg>`;
 * sanitise with DOMPurify's SVG profile (no script, event handlers, foreignObject, style elements,
 * links, or references outside the document); serialise the surviving `<svg>` as XML.
 */
export async function sanitizeSvg(data: Buffer): Promise<Buffer | undefined> {
  const text = data.toString('utf8').replace(/^\uFEFF/, '');
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) return undefined;
  const { purify, parseXml, serialize } = await sanitizer();
  const parsed = parseXml(text).documentElement;
  if (parsed.localName !== 'svg' || (parsed.namespaceURI !== SVG_NS && parsed.namespaceURI !== null)) return undefined;
  const body = purify.sanitize(text, {
    USE_PROFILES: { svg: true, svgFilters: true },
    FORBID_TAGS,
    RETURN_DOM: true,
  });
  const root = (body as unknown as Element).firstElementChild;
  if (!root || root.localName !== 'svg' || root.namespaceURI !== SVG_NS) return undefined;
  return Buffer.from(serialize(root), 'utf8');
}
