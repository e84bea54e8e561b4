import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { BrowserPool } from '@sift/browser';
import { startWorkerHealthServer } from '@sift/queue';
import type { ExtractUrlPayload } from '@sift/queue-contracts';
import { type EgressPolicy, type FixtureServer, safeFetch, startFixtureServer } from '@sift/safe-fetch';
import { ContentParsingPool } from '@sift/task-pool';
import { binaryNoise, linkHeavyHtml, pdfBomb } from '@sift/testing';
import { type ExtractionOutcome, ExtractionService } from './extraction.service';

// Hostile pages (issue #16): each must fail with a clear per-URL reason within its deadline while the worker stays
// healthy, its /health answering throughout and the next extraction working. Limits are small so the test is fast.
jest.setTimeout(60_000);

const policy: EgressPolicy = { allowCidrs: ['127.0.0.1/32'] };
const PARSE_DEADLINE_MS = 3_000;
const PAGE_HEAP_MB = 64;
// A request deadline well past the parse deadline: the parse deadline is what must stop the bomb.
const REQUEST_TIMEOUT_MS = 20_000;

const articleHtml = `<!doctype html><html lang="en"><head><title>Harbour notes</title></head><body><article><h1>Harbour notes</h1>
<p>${'The harbour master logs every ship that enters the channel, its cargo and the tide it came in on. '.repeat(6)}</p></article></body></html>`;

// Allocates about 3 MB of JavaScript heap every 10 ms and holds on to it, forever; an image that never arrives
// keeps the load event (which the browser waits for) from firing.
const memoryHogHtml = `<!doctype html><html><head><title>Memory hog</title></head><body><p>Loading…</p><img src="/stalled.png"><script>
const held = [];
(function grow() { for (let i = 0; i < 4; i += 1) held.push(new Array(100000).fill(Math.random())); setTimeout(grow, 10); })();
</script></body></html>`;

function send(contentType: string, body: string | Buffer) {
  return (_request: unknown, response: ServerResponse) => {
    response.writeHead(200, { 'content-type': contentType });
    response.end(body);
  };
}

describe('hostile content in the extractor', () => {
  let site: FixtureServer;
  let browser: BrowserPool;
  let parser: ContentParsingPool;
  let service: ExtractionService;
  let health: { port: number; close: () => Promise<void> };
  const unexpectedErrors: unknown[] = [];
  const stalledResponses: ServerResponse[] = [];

  const payloadFor = (path: string, overrides: Partial<ExtractUrlPayload> = {}): ExtractUrlPayload => ({
    requestId: randomUUID(),
    accountId: 'account-hostile-test',
    url: `${site.url}${path}`,
    extractDepth: 'basic',
    format: 'markdown',
    timeoutMs: REQUEST_TIMEOUT_MS,
    includeImages: false,
    includeFavicon: false,
    chunksPerSource: 3,
    ...overrides,
  });

  /** Runs one extraction while /health is polled every 100 ms; every poll must answer within a second. */
  async function extractWhileProbingHealth(payload: ExtractUrlPayload): Promise<{ result: ExtractionOutcome; elapsedMs: number; slowestHealthMs: number }> {
    let done = false;
    const healthTimes: number[] = [];
    const probing = (async () => {
      while (!done) {
        const startedAt = performance.now();
        const answer = await safeFetch(`http://127.0.0.1:${health.port}/health`, { policy, deadlineMs: 1_000, accept: ['json'] });
        expect(answer.status).toBe(200);
        healthTimes.push(performance.now() - startedAt);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    const startedAt = performance.now();
    try {
      const result = await service.extract(payload);
      return { result, elapsedMs: performance.now() - startedAt, slowestHealthMs: Math.max(...healthTimes) };
    } finally {
      done = true;
      await probing;
    }
  }

  async function expectNormalPageStillExtracts(extractDepth: ExtractUrlPayload['extractDepth'] = 'basic'): Promise<void> {
    const result = await service.extract(payloadFor('/article', { extractDepth }));
    if (!result.ok) throw new Error(`the next extraction failed: ${result.error}`);
    expect(result.page.title).toBe('Harbour notes');
  }

  beforeAll(async () => {
    site = await startFixtureServer({
      '/article': send('text/html; charset=utf-8', articleHtml),
      // 3000 pages that all show one 8 MB compressed content stream: a few hundred KB on the wire.
      '/bomb.pdf': send('application/pdf', pdfBomb({ pages: 3_000, streamBytes: 8 * 1024 * 1024 })),
      '/noise.html': send('text/html; charset=utf-8', binaryNoise(5 * 1024 * 1024)),
      // Markup crafted for the regular expressions that judge a page (block-page markers): quadratic work.
      '/unclosed-scripts.html': send('text/html; charset=utf-8', `<html><body>${'<script>'.repeat(100_000)}`),
      '/links-20k.html': send('text/html; charset=utf-8', linkHeavyHtml(20_000)),
      '/links-100k.html': send('text/html; charset=utf-8', linkHeavyHtml(100_000)),
      '/hog.html': send('text/html; charset=utf-8', memoryHogHtml),
      '/stalled.png': (_request, response) => void stalledResponses.push(response),
    });
    browser = new BrowserPool({ policy, maxConcurrentPages: 1, maxPageHeapMb: PAGE_HEAP_MB });
    parser = await ContentParsingPool.start({ threads: 1, deadlineMs: PARSE_DEADLINE_MS, maxHeapMb: 256, maxQueue: 8, maxPdfPages: 200 });
    service = new ExtractionService({ policy, browser, parser, onError: (error) => unexpectedErrors.push(error) });
    health = await startWorkerHealthServer({
      port: 0,
      host: '127.0.0.1',
      checkRedis: async () => ({ ok: true, latencyMs: 0 }),
      metrics: async () => '',
      metricsContentType: 'text/plain',
    });
  });

  afterEach(() => {
    expect(unexpectedErrors.splice(0)).toEqual([]);
  });

  afterAll(async () => {
    for (const response of stalledResponses) response.destroy();
    await Promise.allSettled([health?.close(), browser?.close(), parser?.close(), site?.close()]);
  });

  it('stops a PDF bomb at the parse deadline or its page cap, the worker healthy throughout and after', async () => {
    const { result, elapsedMs, slowestHealthMs } = await extractWhileProbingHealth(payloadFor('/bomb.pdf'));
    // On a fast machine the caps (200 pages, 2 million characters) end the work before the deadline: a bounded answer.
    if (result.ok) expect(result.content.length).toBeLessThanOrEqual(2_000_000);
    else expect(result).toEqual({ ok: false, url: `${site.url}/bomb.pdf`, error: 'Content too complex: parsing took longer than 3s', errorCode: 'too_large' });
    expect(elapsedMs).toBeLessThan(PARSE_DEADLINE_MS + 2_000);
    expect(slowestHealthMs).toBeLessThan(1_000);
    await expectNormalPageStillExtracts();
  });

  it('refuses 5 MB of random bytes served as text/html before parsing them', async () => {
    const { result, elapsedMs, slowestHealthMs } = await extractWhileProbingHealth(payloadFor('/noise.html'));
    expect(result).toEqual({ ok: false, url: `${site.url}/noise.html`, error: 'Unsupported content: binary data', errorCode: 'unsupported_type' });
    expect(elapsedMs).toBeLessThan(2_000);
    expect(slowestHealthMs).toBeLessThan(1_000);
    await expectNormalPageStillExtracts();
  });

  it('stops markup crafted for quadratic regular expressions at the parse deadline, off the event loop', async () => {
    const { result, elapsedMs, slowestHealthMs } = await extractWhileProbingHealth(payloadFor('/unclosed-scripts.html'));
    expect(result).toEqual({ ok: false, url: `${site.url}/unclosed-scripts.html`, error: 'Content too complex: parsing took longer than 3s', errorCode: 'too_large' });
    expect(elapsedMs).toBeLessThan(PARSE_DEADLINE_MS + 2_000);
    expect(slowestHealthMs).toBeLessThan(1_000);
    await expectNormalPageStillExtracts();
  });

  it('stops a page that allocates without bound at its memory cap and recycles the browser', async () => {
    await expectNormalPageStillExtracts('advanced');
    const launchedBefore = browser.launchedBrowserCount;
    const { result, elapsedMs, slowestHealthMs } = await extractWhileProbingHealth(payloadFor('/hog.html', { extractDepth: 'advanced', timeoutMs: 8_000 }));
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toMatch(/^Content too large: The page (used more than 64 MB of memory|crashed its renderer, out of memory)/);
    expect(elapsedMs).toBeLessThan(8_000);
    expect(slowestHealthMs).toBeLessThan(1_000);
    await expectNormalPageStillExtracts('advanced');
    expect(browser.launchedBrowserCount).toBe(launchedBefore + 1);
  });

  // Issue #16: markdown conversion quadratic in the number of links (10k links took 11.8 s). Linear now: on 2 busy
  // cores the page of 20k links extracts in ~2.5 s, of 100k in ~9 s (beyond this test's 3 s parse deadline).
  it('stops a page of 100k links at the parse deadline or the heap cap, the worker healthy throughout and after', async () => {
    const { result, elapsedMs, slowestHealthMs } = await extractWhileProbingHealth(payloadFor('/links-100k.html'));
    expect(result).toEqual({
      ok: false,
      url: `${site.url}/links-100k.html`,
      error: expect.stringMatching(/^Content too complex: parsing took longer than 3s$|^Content too large: parsing needed more than 256 MB of memory$/),
      errorCode: 'too_large',
    });
    expect(elapsedMs).toBeLessThan(PARSE_DEADLINE_MS + 2_000);
    expect(slowestHealthMs).toBeLessThan(1_000);
    await expectNormalPageStillExtracts();
  });

  it('extracts a page of 20k links within the default parse deadline', async () => {
    const defaultParser = await ContentParsingPool.start({ threads: 1, deadlineMs: 15_000, maxHeapMb: 512, maxQueue: 8, maxPdfPages: 200 });
    try {
      const defaultService = new ExtractionService({ policy, browser, parser: defaultParser, onError: (error) => unexpectedErrors.push(error) });
      const startedAt = performance.now();
      const result = await defaultService.extract(payloadFor('/links-20k.html'));
      const elapsedMs = performance.now() - startedAt;
      if (!result.ok) throw new Error(`the 20k-link page failed: ${result.error}`);
      expect(result.page.title).toBe('Links');
      expect(result.page.markdown.match(/\]\(/g)).toHaveLength(20_000);
      expect(result.page.markdown).toContain(`[berth 19999](${site.url}/page/19999)`);
      expect(elapsedMs).toBeLessThan(12_000);
    } finally {
      await defaultParser.close();
    }
  });
});
