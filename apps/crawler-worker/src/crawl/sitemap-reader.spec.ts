import { gzipSync } from 'node:zlib';
import { readSitemap } from './sitemap-reader';

describe('readSitemap', () => {
  it('reads a url set, also when it holds a single entry, with entities decoded', () => {
    const xml = `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc> https://example.com/a?x=1&amp;y=2 </loc></url></urlset>`;
    expect(readSitemap(Buffer.from(xml))).toEqual({ pages: ['https://example.com/a?x=1&y=2'], sitemaps: [] });
  });

  it('reads a gzip-compressed sitemap index', () => {
    const xml = `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>https://example.com/s1.xml.gz</loc></sitemap><sitemap><loc>https://example.com/s2.xml</loc></sitemap></sitemapindex>`;
    expect(readSitemap(gzipSync(Buffer.from(xml)))).toEqual({
      pages: [],
      sitemaps: ['https://example.com/s1.xml.gz', 'https://example.com/s2.xml'],
    });
  });
});
