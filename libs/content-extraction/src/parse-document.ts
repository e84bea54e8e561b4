import { parseHTML } from 'linkedom';

// Scripts, styles, SVG drawings and comments are often more than half of a page's bytes and never main content;
// dropping them before parsing makes the DOM build several times cheaper. JSON-LD is read before this.
// An end tag ends at its first ">" whatever follows the name (`</script` + newline + `<!-- … -->` is one end
// tag for a browser), so the end-tag pattern allows attributes-like junk before ">".
const NON_CONTENT_BLOCKS = /<(script|style|svg|template|noscript)\b[^>]*>[\s\S]*?<\/\1(?:\s[^>]*)?>|<!--[\s\S]*?-->/gi;

/** The page without scripts, styles, drawings and comments. */
export function stripNonContent(html: string): string {
  return html.replace(NON_CONTENT_BLOCKS, ' ');
}

const NOSCRIPT_START = /<noscript\b[^>]*>/gi;
const NOSCRIPT_END = /<\/noscript(?:\s[^>]*)?>/gi;
const MARKUP = /<[^>]*>/g;

/**
 * The page's `<noscript>` blocks: where each starts, its markup, and where it ends. One pass: a start tag without an
 * end tag after it ends the search (a lazy pattern would scan to the end of the page again from every such tag).
 */
function noscriptBlocks(html: string): { start: number; inner: string; end: number }[] {
  const blocks: { start: number; inner: string; end: number }[] = [];
  NOSCRIPT_START.lastIndex = 0;
  for (let start = NOSCRIPT_START.exec(html); start; start = NOSCRIPT_START.exec(html)) {
    NOSCRIPT_END.lastIndex = NOSCRIPT_START.lastIndex;
    const end = NOSCRIPT_END.exec(html);
    if (!end) break;
    blocks.push({ start: start.index, inner: html.slice(NOSCRIPT_START.lastIndex, end.index), end: NOSCRIPT_END.lastIndex });
    NOSCRIPT_START.lastIndex = NOSCRIPT_END.lastIndex;
  }
  return blocks;
}

/** How many characters of text the page's `<noscript>` blocks hold (their markup and runs of spaces not counted). */
export function noscriptTextLength(html: string): number {
  return noscriptBlocks(html).reduce((length, block) => length + block.inner.replace(MARKUP, ' ').replace(/\s+/g, ' ').trim().length, 0);
}

/** The page as a browser without JavaScript shows it: the `<noscript>` blocks' markup in place of the blocks. */
export function withNoscriptContent(html: string): string {
  let unwrapped = '';
  let position = 0;
  for (const block of noscriptBlocks(html)) {
    unwrapped += html.slice(position, block.start) + block.inner;
    position = block.end;
  }
  return unwrapped + html.slice(position);
}

/**
 * Puts markup into the shape linkedom needs. It builds no implied <html>/<body> (it is not a spec parser), so
 * fragments get them explicitly; and markup before the <html> tag (plugins print <title>, <meta> and <style>
 * before the doctype) would leave an empty body, so it is moved into <head>, where a browser would put it.
 */
export function completeDocument(html: string): string {
  const htmlTag = /<html[\s>]/i.exec(html);
  if (!htmlTag) return `<!DOCTYPE html><html><head></head><body>${html}</body></html>`;
  const prefix = html.slice(0, htmlTag.index).replace(/<!doctype[^>]*>/gi, '');
  if (!/\S/.test(prefix)) return html;
  const rest = html.slice(htmlTag.index);
  const headTag = /<head(?:\s[^>]*)?>/i.exec(rest);
  if (!headTag) return rest;
  const afterHead = headTag.index + headTag[0].length;
  return `${rest.slice(0, afterHead)}${prefix}${rest.slice(afterHead)}`;
}

export function parseDocument(html: string): Document {
  const { document } = parseHTML(completeDocument(html));
  return document as unknown as Document;
}

/** The `<script type="application/ld+json">` bodies of a page, parsed; invalid ones are skipped. */
export function readJsonLd(html: string): unknown[] {
  const blocks: unknown[] = [];
  const pattern = /<script[^>]+type\s*=\s*["']?application\/ld\+json["']?[^>]*>([\s\S]*?)<\/script\s*>/gi;
  for (const match of html.matchAll(pattern)) {
    try {
      blocks.push(JSON.parse(match[1].trim()));
    } catch {
      // Hand-written JSON-LD is often broken; metadata is best effort.
    }
  }
  return blocks;
}

export function resolveUrl(value: string | null | undefined, baseUrl: string): string | undefined {
  if (!value) return undefined;
  try {
    const url = new URL(value.trim(), baseUrl);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}
