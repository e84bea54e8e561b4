import { parseHTML } from 'linkedom';
import { PageLinks } from './crawl-dependencies';

// Stopgap until @sift/content-extraction exports extractLinks: the crawl engine only needs its shape.
const CONTEXT_CHARS = 200;
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
  for (const anchor of Array.from(document.querySelectorAll('a[href], area[href]'))) {
    const url = resolve(anchor.getAttribute('href'), baseUrl);
    if (!url) continue;
    const text = collapse(anchor.textContent ?? '');
    const rel = (anchor.getAttribute('rel') ?? '').toLowerCase().split(/\s+/);
    links.push({ url, text, context: contextOf(anchor, text), nofollow: rel.includes('nofollow') });
  }
  return { links, canonicalUrl, robotsNoFollow: /\b(?:nofollow|none)\b/i.test(robotsMeta) };
}

/** The text of the closest ancestor that says more than the anchor itself, cut around the anchor. */
function contextOf(anchor: Element, text: string): string {
  let container = anchor.parentElement;
  while (container && collapse(container.textContent ?? '').length <= text.length + 20 && container.parentElement) {
    container = container.parentElement;
  }
  const surrounding = collapse(container?.textContent ?? text);
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
