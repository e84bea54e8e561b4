import { CrawlJob } from './crawl.job';
import type { CrawlPayload } from './crawl-payload.schema';
import { MapJob } from './map.job';
import type { WebPage } from './web-page.schema';

const page: WebPage = {
  url: 'https://docs.example.com',
  finalUrl: 'https://docs.example.com/',
  title: 'Docs',
  markdown: 'x',
  text: 'x',
  isNews: false,
  isUnsafe: false,
  countryHints: [],
  images: [],
  contentHash: 'hash',
};

const crawlPayload: CrawlPayload = {
  requestId: 'req-1',
  accountId: 'acc-1',
  url: 'https://docs.example.com',
  chunksPerSource: 3,
  maxDepth: 1,
  maxBreadth: 20,
  limit: 50,
  allowExternal: true,
  includeImages: false,
  extractDepth: 'basic',
  format: 'markdown',
  includeFavicon: false,
  timeoutMs: 150_000,
};

describe('CrawlJob and MapJob', () => {
  it('share the crawl queue under distinct job names', () => {
    expect(CrawlJob.queue).toBe('crawl');
    expect(MapJob.queue).toBe('crawl');
    expect(CrawlJob.name).not.toBe(MapJob.name);
  });

  it('accept the crawl request limits and reject values outside them', () => {
    expect(CrawlJob.payloadSchema.safeParse({ ...crawlPayload, selectPaths: ['/docs/.*'] }).success).toBe(true);
    expect(CrawlJob.payloadSchema.safeParse({ ...crawlPayload, maxDepth: 6 }).success).toBe(false);
    expect(CrawlJob.payloadSchema.safeParse({ ...crawlPayload, maxBreadth: 501 }).success).toBe(false);
    expect(MapJob.payloadSchema.safeParse({ ...crawlPayload, limit: 0 }).success).toBe(false);
  });

  it('distinguish a crawl result (pages) from a map result (urls)', () => {
    const progress = { baseUrl: 'https://docs.example.com', successfulPages: 1, failedPages: 0, partial: false };
    expect(CrawlJob.resultSchema.safeParse({ ...progress, results: [{ page, content: 'x' }] }).success).toBe(true);
    expect(MapJob.resultSchema.safeParse({ ...progress, urls: ['https://docs.example.com'] }).success).toBe(true);
    expect(MapJob.resultSchema.safeParse({ ...progress, results: [] }).success).toBe(false);
    expect(CrawlJob.resultSchema.safeParse({ ...progress, results: [{ url: 'https://docs.example.com', rawContent: 'x' }] }).success).toBe(false);
  });

  it('carry a crawled page narrowed to what the answer shows, not its whole text again', () => {
    const progress = { baseUrl: 'https://docs.example.com', successfulPages: 1, failedPages: 0, partial: false };
    const narrowed = { url: page.url, finalUrl: page.finalUrl, title: page.title, images: [] };
    expect(CrawlJob.resultSchema.parse({ ...progress, results: [{ page: narrowed, content: 'x' }] }).results[0].page).toEqual(narrowed);
    // A worker that still sends the whole page is read as the narrowed one.
    expect(CrawlJob.resultSchema.parse({ ...progress, results: [{ page, content: 'x' }] }).results[0].page).toEqual(narrowed);
    expect(CrawlJob.resultSchema.safeParse({ ...progress, results: [{ page: { url: page.url, title: page.title }, content: 'x' }] }).success).toBe(false);
  });
});
