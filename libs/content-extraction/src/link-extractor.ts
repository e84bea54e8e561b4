import { ExtractedLinks, ExtractedLink } from './extract-options';
import { DocumentTags } from './document-tags';
import { findElements, isElement, MarkupDocument, MarkupElement, parseMarkup, textOf } from './markup-tree';
import { resolveUrl, stripNonContent } from './parse-document';

const CONTEXT_CHARS = 200;

interface BlockText {
  text: string;
  /** Where the search for the block's next link starts. */
  searchFrom: number;
}

const BLOCK_TAGS = new Set(['p', 'li', 'td', 'th', 'dd', 'dt', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'figcaption', 'div', 'section', 'article', 'body']);

/** The nearest ancestor of a link that is a block. */
function blockOf(anchor: MarkupElement): MarkupElement | undefined {
  for (let node = anchor.parent; node && isElement(node); node = node.parent) {
    if (BLOCK_TAGS.has(node.name)) return node;
  }
  return undefined;
}

/**
 * Up to ~200 characters of the text around a link, centred on it, taken from its nearest block. Block texts are
 * cached: many links share one block, and reading a big block's text once per link is quadratic on manual pages.
 * For the same reason each block remembers where its previous link was found: links come in document order, so
 * the search for the next one starts there instead of at the top of the block (a page of 100k links).
 */
function linkContext(anchor: MarkupElement, text: string, blocks: Map<MarkupElement, BlockText>): string {
  const block = blockOf(anchor);
  let blockText = block ? blocks.get(block) : { text, searchFrom: 0 };
  if (blockText === undefined && block) {
    blockText = { text: textOf(block).replace(/\s+/g, ' ').trim(), searchFrom: 0 };
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
  const document = parseMarkup(stripNonContent(html));
  return linksFromMarkup(document, new DocumentTags(document), baseUrl);
}

/**
 * The links of a page and the length of the text it shows as served (scripts not run), from one parse: a page with
 * scripts and next to no text is a script's shell whose links exist only once it is rendered.
 */
export function extractLinksAndTextSize(html: string, baseUrl: string): { links: ExtractedLinks; textChars: number } {
  const document = parseMarkup(stripNonContent(html));
  const links = linksFromMarkup(document, new DocumentTags(document), baseUrl);
  return { links, textChars: textOf(document).replace(/\s+/g, ' ').trim().length };
}

/** The links of an already parsed, not yet modified page (see `extractLinks`). */
export function linksFromMarkup(document: MarkupDocument, tags: DocumentTags, baseUrl: string): ExtractedLinks {
  const { baseUrl: resolveAgainst, baseHref } = tags.baseUrl(baseUrl);
  const robots = tags.metas
    .filter((meta) => /^(robots|googlebot)$/i.test(meta['name'] ?? ''))
    .map((meta) => (meta['content'] ?? '').toLowerCase());
  const robotsNoFollow = robots.some((content) => /\b(nofollow|none)\b/.test(content));
  const canonical = tags.link('canonical')?.['href'];

  const links: ExtractedLink[] = [];
  const blockTexts = new Map<MarkupElement, BlockText>();
  for (const anchor of findElements(document, (element) => element.name === 'a' && element.attribs['href'] !== undefined)) {
    const url = resolveUrl(anchor.attribs['href'], resolveAgainst);
    if (!url) continue;
    const withoutFragment = url.split('#')[0];
    const text = textOf(anchor).replace(/\s+/g, ' ').trim();
    const rel = (anchor.attribs['rel'] ?? '').toLowerCase().split(/\s+/);
    links.push({ url: withoutFragment, text, context: linkContext(anchor, text, blockTexts), nofollow: rel.includes('nofollow') });
  }
  return { links, canonicalUrl: resolveUrl(canonical, resolveAgainst), baseHref, robotsNoFollow };
}
