import { gzipSync } from 'node:zlib';
import { FetchError, safeFetch, startFixtureServer, type EgressPolicy, type FixtureServer } from './index';

const policy: EgressPolicy = { allowCidrs: ['127.0.0.2/32'] };
const sitemap = '<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/ä</loc></url></urlset>';

let site: FixtureServer;

beforeAll(async () => {
  const send = (contentType: string, body: Buffer) => (_request: unknown, response: import('node:http').ServerResponse) => {
    response.writeHead(200, { 'content-type': contentType });
    response.end(body);
  };
  site = await startFixtureServer(
    {
      '/sitemap.xml.gz': send('application/gzip', gzipSync(sitemap)),
      '/legacy-sitemap.xml.gz': send('application/x-gzip', gzipSync(sitemap)),
      '/undeclared-sitemap.xml.gz': send('application/octet-stream', gzipSync(sitemap)),
      '/no-prolog.xml.gz': send('application/gzip', gzipSync('\n<sitemapindex><sitemap><loc>https://example.com/a.xml</loc></sitemap></sitemapindex>')),
      '/archive.gz': send('application/gzip', gzipSync(Buffer.from([0, 1, 2, 3, 4, 5, 0, 0]))),
      '/bomb.xml.gz': send('application/gzip', gzipSync(Buffer.concat([Buffer.from('<urlset>'), Buffer.alloc(32 * 1024 * 1024, ' ')]), { level: 9 })),
    },
    ['127.0.0.2'],
  );
});

afterAll(async () => {
  await site.close();
});

async function failureCode(path: string, options: Partial<Parameters<typeof safeFetch>[1]> = {}): Promise<string> {
  try {
    await safeFetch(`${site.url}${path}`, { policy, deadlineMs: 5000, accept: ['xml'], ...options });
  } catch (error) {
    if (error instanceof FetchError) return error.code;
    throw error;
  }
  return 'no failure';
}

describe('gzip-packed sitemaps', () => {
  it.each(['/sitemap.xml.gz', '/legacy-sitemap.xml.gz', '/undeclared-sitemap.xml.gz'])('unpacks %s as XML when the caller accepts XML', async (path) => {
    const resource = await safeFetch(`${site.url}${path}`, { policy, deadlineMs: 5000, accept: ['xml'] });
    expect(resource).toMatchObject({ kind: 'xml', mimeType: 'application/xml', charset: 'utf-8', text: sitemap });
  });

  it('accepts a sitemap index without an XML declaration', async () => {
    const resource = await safeFetch(`${site.url}/no-prolog.xml.gz`, { policy, deadlineMs: 5000, accept: ['xml', 'html'] });
    expect(resource.kind).toBe('xml');
    expect(resource.text).toContain('<sitemapindex>');
  });

  it('still refuses gzip files when the caller does not accept XML', async () => {
    expect(await failureCode('/sitemap.xml.gz', { accept: ['html', 'text'] })).toBe('unsupported_content');
    expect(await failureCode('/undeclared-sitemap.xml.gz', { accept: ['html', 'text'] })).toBe('unsupported_content');
  });

  it('refuses a gzip file that holds no XML', async () => {
    expect(await failureCode('/archive.gz')).toBe('unsupported_content');
  });

  it('caps the unpacked size', async () => {
    // The cap is what is tested: a deadline long enough that a machine busy with other suites never reaches it first.
    expect(await failureCode('/bomb.xml.gz', { maxBytes: 1024 * 1024, deadlineMs: 30_000 })).toBe('too_large');
  });
});
