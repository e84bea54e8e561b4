import { parseHTML } from 'linkedom';

// Scripts, styles, SVG drawings and comments are often more than half of a page's bytes and never main content;
// dropping them before parsing makes the DOM build several times cheaper. JSON-LD is read before this.
const NON_CONTENT_BLOCKS = /<(script|style|svg|template|noscript)\b[^>]*>[\s\S]*?<\/\1\s*>|<!--[\s\S]*?-->/gi;

export function stripNonContent(html: string): string {
  return html.replace(NON_CONTENT_BLOCKS, ' ');
}

export function parseDocument(html: string): Document {
  // linkedom builds no implied <html>/<body> (it is not a spec parser), so fragments get them explicitly.
  const complete = /<html[\s>]/i.test(html) ? html : `<!DOCTYPE html><html><head></head><body>${html}</body></html>`;
  const { document } = parseHTML(complete);
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

/** The `<base href>` of a page resolved against its address, or the address itself. */
export function documentBaseUrl(document: Document, pageUrl: string): { baseUrl: string; baseHref?: string } {
  const baseHref = document.querySelector('base[href]')?.getAttribute('href') ?? undefined;
  const resolved = resolveUrl(baseHref, pageUrl);
  return { baseUrl: resolved ?? pageUrl, baseHref: resolved };
}
