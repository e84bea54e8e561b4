/**
 * An inline link as extraction writes it: `[text](url)` or `[text](url "title")`, not an image (`![alt](src)`). The
 * link text may not hold brackets, so a linked image's own source is not read as the link.
 */
const INLINE_LINK = /(?<!!)\[[^[\]]*\]\(\s*<?(https?:\/\/[^\s)>]+)>?(?:\s+"[^"]*")?\s*\)/gi;

/** More links than this in one page's content are a directory, not a page's references: the first ones stand. */
export const MAX_CONTENT_LINKS = 1000;

/**
 * The http(s) pages a page's content links to, read from its markdown (whose links extraction made absolute),
 * without fragments, each once, in page order, at most MAX_CONTENT_LINKS. Only the main content's links: the
 * navigation and footers boilerplate removal drops link every page to every other and say nothing of either.
 */
export function markdownLinks(markdown: string): string[] {
  const links = new Set<string>();
  for (const match of markdown.matchAll(INLINE_LINK)) {
    const fragment = match[1].indexOf('#');
    links.add(fragment === -1 ? match[1] : match[1].slice(0, fragment));
    if (links.size === MAX_CONTENT_LINKS) break;
  }
  return [...links];
}
