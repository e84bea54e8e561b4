import { ExtractUrlJob, type ExtractUrlPayload } from './extract-url.job';

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
  storeDocument: true,
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
    ['a missing storeDocument flag', { storeDocument: undefined }],
  ])('rejects %s', (_label, override) => {
    expect(ExtractUrlJob.payloadSchema.safeParse({ ...validPayload, ...override }).success).toBe(false);
  });

  it('parses both result shapes and rejects a success without content', () => {
    const success = { ok: true, url: 'https://a.test/', rawContent: '# A', title: 'A', fromCache: false };
    const failure = { ok: false, url: 'https://a.test/', error: 'HTTP 404' };
    expect(ExtractUrlJob.resultSchema.parse(success)).toEqual(success);
    expect(ExtractUrlJob.resultSchema.parse(failure)).toEqual(failure);
    expect(ExtractUrlJob.resultSchema.safeParse({ ok: true, url: 'https://a.test/', title: 'A', fromCache: false }).success).toBe(false);
  });
});
