import { gunzipSync } from 'node:zlib';
import { XMLParser } from 'fast-xml-parser';

// A sitemap may hold 50,000 URLs and 50 MB uncompressed (sitemaps.org); more is refused, not parsed.
const MAX_SITEMAP_BYTES = 50 * 1024 * 1024;

export interface SitemapEntries {
  /** Page URLs of a `<urlset>`. */
  pages: string[];
  /** Nested sitemaps of a `<sitemapindex>`. */
  sitemaps: string[];
}

const parser = new XMLParser({
  ignoreAttributes: true,
  removeNSPrefix: true,
  // Both lists may hold a single element; the parser would otherwise collapse it to an object.
  isArray: (tagName) => tagName === 'url' || tagName === 'sitemap',
  processEntities: true,
});

/** Reads a sitemap or sitemap index, gzip-compressed or not (detected by its magic bytes, not its name). */
export function readSitemap(body: Buffer): SitemapEntries {
  const xml = isGzip(body) ? gunzipSync(body, { maxOutputLength: MAX_SITEMAP_BYTES }).toString('utf8') : body.toString('utf8');
  const document: unknown = parser.parse(xml);
  return {
    pages: locationsOf(document, 'urlset', 'url'),
    sitemaps: locationsOf(document, 'sitemapindex', 'sitemap'),
  };
}

function isGzip(body: Buffer): boolean {
  return body.length > 2 && body[0] === 0x1f && body[1] === 0x8b;
}

function locationsOf(document: unknown, rootName: string, entryName: string): string[] {
  const root = propertyOf(document, rootName);
  const entries = propertyOf(root, entryName);
  if (!Array.isArray(entries)) return [];
  const locations: string[] = [];
  for (const entry of entries) {
    const location = propertyOf(entry, 'loc');
    if (typeof location === 'string' && location.trim() !== '') locations.push(location.trim());
  }
  return locations;
}

function propertyOf(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined;
}
