import { ExtractedLinks, ExtractedLink } from './extracted-content';
import { documentBaseUrl, parseDocument, resolveUrl, stripNonContent } from './parse-document';

const CONTEXT_CHARS = 200;
const BLOCK_SELECTOR = 'p, li, td, th, dd, dt, h1, h2, h3, h4, h5, h6, blockquote, figcaption, div, section, article, body';

/** Up to ~200 characters of the text around a link, centred on it, taken from its nearest block. */
function linkContext(anchor: Element, text: string): string {
  const block = anchor.parentElement?.closest(BLOCK_SELECTOR);
  const blockText = (block?.textContent ?? text).replace(/\s+/g, ' ').trim();
  if (blockText.length <= CONTEXT_CHARS) return blockText;
  const position = Math.max(0, blockText.indexOf(text));
  const start = Math.max(0, Math.min(position - (CONTEXT_CHARS - text.length) / 2, blockText.length - CONTEXT_CHARS));
  return blockText.slice(Math.floor(start), Math.floor(start) + CONTEXT_CHARS).trim();
}

/**
 * Every `<a href>` of the page (navigation included: crawlers need it), resolved against `<base href>`, without
 * fragments, http(s) only. Entities in hrefs are decoded by the parser.
 */
export function extractLinks(html: string, baseUrl: string): ExtractedLinks {
  const document = parseDocument(stripNonContent(html));
  const { baseUrl: resolveAgainst, baseHref } = documentBaseUrl(document, baseUrl);
  const robots = Array.from(document.querySelectorAll('meta[name]'))
    .filter((element) => /^(robots|googlebot)$/i.test(element.getAttribute('name') ?? ''))
    .map((element) => (element.getAttribute('content') ?? '').toLowerCase());
  const robotsNoFollow = robots.some((content) => /\b(nofollow|none)\b/.test(content));
  const canonical = document.querySelector('link[rel="canonical"][href]')?.getAttribute('href');

  const links: ExtractedLink[] = [];
  for (const anchor of Array.from(document.querySelectorAll('a[href]'))) {
    const url = resolveUrl(anchor.getAttribute('href'), resolveAgainst);
    if (!url) continue;
    const withoutFragment = url.split('#')[0];
    const text = (anchor.textContent ?? '').replace(/\s+/g, ' ').trim();
    const rel = (anchor.getAttribute('rel') ?? '').toLowerCase().split(/\s+/);
    links.push({ url: withoutFragment, text, context: linkContext(anchor, text), nofollow: rel.includes('nofollow') });
  }
  return { links, canonicalUrl: resolveUrl(canonical, resolveAgainst), baseHref, robotsNoFollow };
}
