import { parseHTML } from 'linkedom';
import { PageLinks } from './crawl-dependencies';

// Stopgap until @sift/content-extraction exports extractLinks: the crawl engine only needs its shape.
const CONTEXT_CHARS = 200;
const BLOCK_ELEMENTS = new Set(['P', 'LI', 'DT', 'DD', 'TD', 'TH', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'DIV', 'SECTION', 'ARTICLE', 'BLOCKQUOTE', 'PRE', 'BODY']);
const NON_CONTENT_BLOCKS = /<(script|style|svg|template|noscript)\b[^>]*>[\s\S]*?<\/\1\s*>|<!--[\s\S]*?-->/gi;

/**
 * The followable links of a page: hrefs entity-decoded by the HTML parser, resolved against `<base href>`
 * (itself resolved against the page URL), with anchor text, surrounding text, rel=nofollow, the canonical link
 * and `<meta name="robots" content="nofollow">`.
 */
export function readHtmlLinks(html: string, pageUrl: string): PageLinks {
  const { document } = parseHTML(html.replace(NON_CONTENT_BLOCKS, ' '));
  const baseHref = document.querySelector('base[href]')?.getAttribute('href');
  const baseUrl = resolve(baseHref, pageUrl) ?? pageUrl;
  const canonicalUrl = resolve(document.querySelector('link[rel~="canonical" i][href]')?.getAttribute('href'), baseUrl);
  const robotsMeta = Array.from(document.querySelectorAll('meta[name="robots" i], meta[name="siftbot" i]'))
    .map((meta) => meta.getAttribute('content') ?? '')
    .join(',');

  const links: PageLinks['links'] = [];
  // Links of one paragraph or list share its text; reading it once keeps big pages linear.
  const blockTexts = new Map<Element, string>();
  for (const anchor of Array.from(document.querySelectorAll('a[href], area[href]'))) {
    const url = resolve(anchor.getAttribute('href'), baseUrl);
    if (!url) continue;
    const text = collapse(anchor.textContent ?? '');
    const rel = (anchor.getAttribute('rel') ?? '').toLowerCase().split(/\s+/);
    links.push({ url, text, context: contextOf(anchor, text, blockTexts), nofollow: rel.includes('nofollow') });
  }
  return { links, canonicalUrl, robotsNoFollow: /\b(?:nofollow|none)\b/i.test(robotsMeta) };
}

/** The text of the anchor's enclosing block (paragraph, list item, cell, …), cut around the anchor. */
function contextOf(anchor: Element, text: string, blockTexts: Map<Element, string>): string {
  let container = anchor.parentElement;
  while (container && !BLOCK_ELEMENTS.has(container.tagName) && container.parentElement) container = container.parentElement;
  if (!container) return text;
  let surrounding = blockTexts.get(container);
  if (surrounding === undefined) {
    surrounding = collapse(container.textContent ?? '');
    blockTexts.set(container, surrounding);
  }
  const position = Math.max(0, surrounding.indexOf(text));
  const start = Math.max(0, position - CONTEXT_CHARS / 2);
  return surrounding.slice(start, start + CONTEXT_CHARS);
}

function resolve(href: string | null | undefined, base: string): string | undefined {
  if (!href) return undefined;
  try {
    return new URL(href.trim(), base).href;
  } catch {
    return undefined;
  }
}

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
