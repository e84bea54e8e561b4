import { ExtractedLinks, ExtractedLink } from './extract-options';
import { documentBaseUrl, parseDocument, resolveUrl, stripNonContent } from './parse-document';

const CONTEXT_CHARS = 200;

interface BlockText {
  text: string;
  /** Where the search for the block's next link starts. */
  searchFrom: number;
}

const BLOCK_SELECTOR = 'p, li, td, th, dd, dt, h1, h2, h3, h4, h5, h6, blockquote, figcaption, div, section, article, body';

/**
 * Up to ~200 characters of the text around a link, centred on it, taken from its nearest block. Block texts are
 * cached: many links share one block, and reading a big block's text once per link is quadratic on manual pages.
 * For the same reason each block remembers where its previous link was found: links come in document order, so
 * the search for the next one starts there instead of at the top of the block (a page of 100k links).
 */
function linkContext(anchor: Element, text: string, blocks: Map<Element, BlockText>): string {
  const block = anchor.parentElement?.closest(BLOCK_SELECTOR);
  let blockText = block ? blocks.get(block) : { text, searchFrom: 0 };
  if (blockText === undefined && block) {
    blockText = { text: (block.textContent ?? '').replace(/\s+/g, ' ').trim(), searchFrom: 0 };
    blocks.set(block, blockText);
  }
  blockText ??= { text, searchFrom: 0 };
  if (blockText.text.length <= CONTEXT_CHARS) return blockText.text;
  const found = blockText.text.indexOf(text, blockText.searchFrom);
  const position = found === -1 ? blockText.searchFrom : found;
  if (found !== -1) blockText.searchFrom = found + text.length;
  const start = Math.max(0, Math.min(position - (CONTEXT_CHARS - text.length) / 2, blockText.text.length - CONTEXT_CHARS));
  return blockText.text.slice(Math.floor(start), Math.floor(start) + CONTEXT_CHARS).trim();
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
  const blockTexts = new Map<Element, BlockText>();
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
