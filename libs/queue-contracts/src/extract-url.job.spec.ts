import { type ExtractedPage, ExtractUrlJob, type ExtractUrlPayload } from './extract-url.job';

const validPayload: ExtractUrlPayload = {
  requestId: 'req-1',
  accountId: 'acc-1',
  url: 'https://example.com/article',
  extractDepth: 'basic',
  format: 'markdown',
  timeoutMs: 10_000,
  includeImages: false,
  includeFavicon: true,
  chunksPerSource: 3,
};

const page: ExtractedPage = {
  url: 'https://a.test/',
  finalUrl: 'https://a.test/',
  title: 'A',
  isNews: false,
  isUnsafe: false,
  countryHints: [],
  images: [],
  contentHash: 'hash',
};

describe('ExtractUrlJob', () => {
  it('runs on the extract queue and is not retried blindly', () => {
    expect(ExtractUrlJob.queue).toBe('extract');
    expect(ExtractUrlJob.name).toBe('extract-url');
    expect(ExtractUrlJob.attempts).toBe(1);
  });

  it('accepts a complete payload and keeps optional fields', () => {
    const parsed = ExtractUrlJob.payloadSchema.parse({ ...validPayload, query: 'pricing', maxCacheAgeMs: 60_000 });
    expect(parsed.query).toBe('pricing');
    expect(parsed.maxCacheAgeMs).toBe(60_000);
  });

  it.each([
    ['an unknown depth', { extractDepth: 'deep' }],
    ['an unknown format', { format: 'html' }],
    ['chunks per source above 5', { chunksPerSource: 6 }],
    ['a fractional timeout', { timeoutMs: 10.5 }],
    ['a missing account', { accountId: undefined }],
  ])('rejects %s', (_label, override) => {
    expect(ExtractUrlJob.payloadSchema.safeParse({ ...validPayload, ...override }).success).toBe(false);
  });

  it('parses both result shapes: the page narrowed with the content asked for, or the whole page; how it was got is required', () => {
    const narrowed = { ok: true, page, content: '# A', fromCache: false, via: 'fetch' };
    const whole = { ok: true, page: { ...page, text: 'A', markdown: '# A' }, fromCache: false, via: 'render' };
    const failure = { ok: false, url: 'https://a.test/', error: 'HTTP 404' };
    expect(ExtractUrlJob.resultSchema.parse(narrowed)).toEqual(narrowed);
    expect(ExtractUrlJob.resultSchema.parse(whole)).toEqual(whole);
    expect(ExtractUrlJob.resultSchema.parse(failure)).toEqual(failure);
    expect(ExtractUrlJob.resultSchema.safeParse({ ...narrowed, via: undefined }).success).toBe(false);
    expect(ExtractUrlJob.resultSchema.safeParse({ ...narrowed, via: 'guess' }).success).toBe(false);
    expect(ExtractUrlJob.resultSchema.safeParse({ ...narrowed, page: { ...page, isUnsafe: undefined } }).success).toBe(false);
  });
});
