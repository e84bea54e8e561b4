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
