import { ExtractedLinks, ExtractedLink } from './extract-options';
import { documentBaseUrl, parseDocument, resolveUrl, stripNonContent } from './parse-document';

const CONTEXT_CHARS = 200;
const BLOCK_SELECTOR = 'p, li, td, th, dd, dt, h1, h2, h3, h4, h5, h6, blockquote, figcaption, div, section, article, body';

/**
 * Up to ~200 characters of the text around a link, centred on it, taken from its nearest block. Block texts are
 * cached: many links share one block, and reading a big block's text once per link is quadratic on manual pages.
 */
function linkContext(anchor: Element, text: string, blockTexts: Map<Element, string>): string {
  const block = anchor.parentElement?.closest(BLOCK_SELECTOR);
  let blockText = block ? blockTexts.get(block) : text;
  if (blockText === undefined && block) {
    blockText = (block.textContent ?? '').replace(/\s+/g, ' ').trim();
    blockTexts.set(block, blockText);
  }
  blockText ??= text;
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
  return linksFromDocument(parseDocument(stripNonContent(html)), baseUrl);
}

/** The links of an already parsed, not yet modified document (see `extractLinks`). */
export function linksFromDocument(document: Document, baseUrl: string): ExtractedLinks {
  const { baseUrl: resolveAgainst, baseHref } = documentBaseUrl(document, baseUrl);
  const robots = Array.from(document.querySelectorAll('meta[name]'))
    .filter((element) => /^(robots|googlebot)$/i.test(element.getAttribute('name') ?? ''))
    .map((element) => (element.getAttribute('content') ?? '').toLowerCase());
  const robotsNoFollow = robots.some((content) => /\b(nofollow|none)\b/.test(content));
  const canonical = document.querySelector('link[rel="canonical"][href]')?.getAttribute('href');

  const links: ExtractedLink[] = [];
  const blockTexts = new Map<Element, string>();
  for (const anchor of Array.from(document.querySelectorAll('a[href]'))) {
    const url = resolveUrl(anchor.getAttribute('href'), resolveAgainst);
    if (!url) continue;
    const withoutFragment = url.split('#')[0];
    const text = (anchor.textContent ?? '').replace(/\s+/g, ' ').trim();
    const rel = (anchor.getAttribute('rel') ?? '').toLowerCase().split(/\s+/);
    links.push({ url: withoutFragment, text, context: linkContext(anchor, text, blockTexts), nofollow: rel.includes('nofollow') });
  }
  return { links, canonicalUrl: resolveUrl(canonical, resolveAgainst), baseHref, robotsNoFollow };
}
