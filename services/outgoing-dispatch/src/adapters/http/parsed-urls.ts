/** How many parsed URLs are kept (callback URLs are few; a flood of new ones only clears the map). */
const MAX_PARSED_URLS = 1024;

export interface ParsedUrl {
  readonly url: URL;
  readonly origin: string;
}

/**
 * Callback URLs parsed once each: the same few URLs are called over and over, and building node's URL
 * object (and its origin) took microseconds of every delivery. The URL objects are shared: read them, never
 * change them (a redirect makes a new one).
 */
export class ParsedUrls {
  private readonly byText = new Map<string, ParsedUrl>();

  /** The parsed URL, or undefined when the text is not a URL. */
  public get(text: string): ParsedUrl | undefined {
    const known = this.byText.get(text);
    if (known !== undefined) return known;
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      return undefined;
    }
    if (this.byText.size >= MAX_PARSED_URLS) this.byText.clear();
    const parsed = { url, origin: url.origin };
    this.byText.set(text, parsed);
    return parsed;
  }
}
