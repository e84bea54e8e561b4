import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { BrowserPool } from '@sift/browser';
import { createPrismaClient, type PrismaClient } from '@sift/persistence';
import type { QueueUnderTest } from '@sift/queue';
import { ExtractUrlJob, type ExtractUrlPayload } from '@sift/queue-contracts';
import { type EgressPolicy, type FixtureServer, startFixtureServer } from '@sift/safe-fetch';
import { PageRepository } from '@sift/pages';
import { ContentParsingPool } from '@sift/task-pool';
import { createTestAccount } from '@sift/testing';
import { type ExtractionOutcome, ExtractionService, type ExtractionServiceOptions } from './extraction.service';
import { startExtractQueue } from './testing/extract-queue';
import { minimalPdf } from './testing/minimal-pdf';

// Chromium's first launch alone can take several seconds.
jest.setTimeout(60_000);

const policy: EgressPolicy = { allowCidrs: ['127.0.0.1/32'] };

// Each paragraph is longer than one 500-character chunk, so a query can pick one topic without the other.
const lighthouseSentences = 'The lighthouse keeper climbed the spiral stairs every evening to light the great lamp above the harbour. Ships approaching the rocky coast relied on its beam to find the narrow channel between the reefs. In winter the storms grew fierce, and the keeper logged wind speeds and wave heights in a leather journal. ';
const sourdoughSentences = 'Sourdough bread needs a lively starter, a long cold fermentation and a very hot oven to develop its crust. Bakers score the loaf before baking so that steam escapes along a chosen line instead of tearing the crust. A good sourdough crumb is open and glossy, with an even sour taste from the starter. ';
const articleParagraphs = [
  lighthouseSentences.repeat(2).trim(),
  sourdoughSentences.repeat(2).trim(),
];
const articleHtml = `<!doctype html><html lang="en"><head><title>The Lighthouse Keeper</title>
<link rel="icon" href="/static/icon.png"></head><body><nav><a href="/">Home</a></nav>
<article><h1>The Lighthouse Keeper</h1>${articleParagraphs.map((paragraph) => `<p>${paragraph}</p>`).join('\n')}
<img src="/images/lamp.jpg" alt="The lamp"></article><footer>Copyright</footer></body></html>`;

const renderedText = 'This article only exists after the script runs: the browser rendered it from JavaScript for the reader. '.repeat(3);
const javascriptOnlyHtml = `<!doctype html><html><head><title>App shell</title></head><body><div id="root"></div>
<script>document.getElementById('root').innerHTML = '<article><h1>Rendered story</h1><p>${renderedText}</p></article>';</script></body></html>`;

// A Blogger-style post: scripts write the body from a template, and a <noscript> copy holds the same post for readers
// without JavaScript. The script here writes a different text, so a result tells which of the two was read.
const noscriptPostText = 'The harbour opened a second channel this spring, and the pilots now bring ships in at low tide as well. '.repeat(6);
const noscriptPostHtml = `<!doctype html><html><head><title>Harbour news</title></head><body><h2>Harbour news</h2>
<div class="post-body"><script>document.querySelector('.post-body').innerHTML = '<p>${renderedText}</p>';</script>
<noscript><p>${noscriptPostText}</p></noscript></div></body></html>`;

// Enough static text that basic depth keeps the HTTP response; the table only exists once scripts run.
const lateTableHtml = `<!doctype html><html><head><title>Quarterly figures</title></head><body><article><h1>Quarterly figures</h1>
<p>${'The figures below summarise the quarter for every region of the company. '.repeat(4)}</p><div id="figures"></div></article>
<script>document.getElementById('figures').innerHTML = '<table><tr><th>Region</th><th>Revenue</th></tr><tr><td>Northwind</td><td>4711</td></tr></table>';</script>
</body></html>`;

const challengeHtml = `<!doctype html><html><head><title>Just a moment...</title></head><body>
<h1>Checking your browser before accessing the site.</h1><p>Please enable JavaScript and cookies to continue.</p>
<div id="cf-challenge-running"></div><script src="/cdn-cgi/challenge-platform/h/b/orchestrate/jsch/v1"></script></body></html>`;

function html(body: string, status = 200) {
  return (_request: unknown, response: ServerResponse) => {
    response.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
    response.end(body);
  };
}

describe('ExtractionService against loopback fixtures', () => {
  let site: FixtureServer;
  let browser: BrowserPool;
  let prisma: PrismaClient;
  let pages: PageRepository;
  let accountId: string;
  let zeroRetentionAccountId: string;
  let service: ExtractionService;
  let parser: ContentParsingPool;
  const pendingSlowResponses: ServerResponse[] = [];
  let reusedArticleHtml = articleHtml;
  let reusedCharset = 'utf-8';
  // Errors the service could only report as "internal error"; a test fails when one slips through.
  const unexpectedErrors: unknown[] = [];

  const payloadFor = (path: string, overrides: Partial<ExtractUrlPayload> = {}): ExtractUrlPayload => ({
    requestId: randomUUID(),
    // Names no account: nothing is stored unless a test passes a real account's id.
    accountId: 'account-extractor-test',
    url: `${site.url}${path}`,
    extractDepth: 'basic',
    format: 'markdown',
    timeoutMs: 20_000,
    includeImages: false,
    includeFavicon: false,
    chunksPerSource: 3,
    ...overrides,
  });

  const expectSuccess = (result: ExtractionOutcome) => {
    if (!result.ok) throw new Error(`expected success, got: ${result.error} ${unexpectedErrors.map(String).join('; ')}`);
    return result;
  };
  const expectFailure = (result: ExtractionOutcome) => {
    if (result.ok) throw new Error(`expected a failure, got content: ${result.content.slice(0, 100)}`);
    return result;
  };

  beforeAll(async () => {
    site = await startFixtureServer({
      '/article': html(articleHtml),
      '/article-for-cache': html(articleHtml),
      '/article-stored-after': html(articleHtml),
      '/article-for-formats': html(articleHtml),
      '/article-zero-retention': html(articleHtml),
      // The bytes a test serves at the moment (changed between requests).
      '/article-for-reuse': (_request, response) => {
        response.writeHead(200, { 'content-type': `text/html; charset=${reusedCharset}` });
        response.end(Buffer.from(reusedArticleHtml, 'utf8'));
      },
      '/javascript-only': html(javascriptOnlyHtml),
      '/noscript-post': html(noscriptPostHtml),
      '/late-table': html(lateTableHtml),
      '/challenge': html(challengeHtml, 403),
      '/report.pdf': (_request, response) => {
        response.writeHead(200, { 'content-type': 'application/pdf' });
        response.end(minimalPdf(['Annual report of the harbour authority', 'Tonnage handled rose by twelve percent']));
      },
      '/notes.txt': (_request, response) => {
        response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
        response.end('Plain notes about tide tables and mooring fees.');
      },
      '/archive.bin': (_request, response) => {
        response.writeHead(200, { 'content-type': 'application/octet-stream' });
        response.end(Buffer.from([0x00, 0x01, 0x02, 0xff, 0x00, 0x10, 0x20]));
      },
      '/photo.png': (_request, response) => {
        response.writeHead(200, { 'content-type': 'image/png' });
        response.end(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
      },
      // Never answers: the response is held until afterAll.
      '/slow': (_request, response) => {
        pendingSlowResponses.push(response);
      },
    });
    browser = new BrowserPool({ policy, maxConcurrentPages: 2 });
    prisma = createPrismaClient(process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/sift_test', 2);
    pages = new PageRepository(prisma);
    accountId = (await createTestAccount(prisma, { plan: 'researcher', name: 'extractor' })).id;
    zeroRetentionAccountId = (await createTestAccount(prisma, { plan: 'researcher', name: 'extractor-zdr', zeroDataRetention: true })).id;
    parser = await ContentParsingPool.start({ threads: 1, deadlineMs: 15_000, maxHeapMb: 256, maxQueue: 32, maxPdfPages: 200 });
    service = new ExtractionService({ policy, browser, parser, pages, onError: (error) => unexpectedErrors.push(error) });
  });

  afterEach(() => {
    const errors = unexpectedErrors.splice(0);
    expect(errors).toEqual([]);
  });

  afterAll(async () => {
    for (const response of pendingSlowResponses) response.destroy();
    await prisma?.document.deleteMany({ where: { url: { startsWith: site.url } } });
    await Promise.allSettled([browser?.close(), parser?.close(), site?.close(), prisma?.$disconnect()]);
  });

  it('extracts an HTML article as markdown with title, images and favicon', async () => {
    const result = expectSuccess(await service.extract(payloadFor('/article', { includeImages: true, includeFavicon: true })));
    expect(result.page.title).toBe('The Lighthouse Keeper');
    expect(result.page).toMatchObject({ url: `${site.url}/article`, finalUrl: `${site.url}/article`, language: 'en', isNews: false, isUnsafe: false });
    expect(result.page.contentHash).toMatch(/^[0-9a-f]{64}$/);
    expect(result.content).toContain('spiral stairs');
    expect(result.content).not.toContain('Copyright');
    expect(result.content).toBe(result.page.markdown);
    expect(result.page.images.map((image) => image.url)).toContain(`${site.url}/images/lamp.jpg`);
    expect(result.page.favicon).toBe(`${site.url}/static/icon.png`);
    expect(result.fromCache).toBe(false);
  });

  it('returns plain text when format is text, the page keeping its markdown and images for the store', async () => {
    const result = expectSuccess(await service.extract(payloadFor('/article', { format: 'text' })));
    expect(result.content).toContain('spiral stairs');
    expect(result.content).not.toMatch(/^#/m);
    expect(result.content).toBe(result.page.text);
    expect(result.page.markdown).toContain(`![The lamp](${site.url}/images/lamp.jpg)`);
    // Not asked for, yet collected: the response leaves them out (page-responses.ts), the stored page keeps them.
    expect(result.page.images.map((image) => image.url)).toContain(`${site.url}/images/lamp.jpg`);
  });

  it('serves a page stored by a text extraction without images to a later markdown request with images, whole', async () => {
    const first = expectSuccess(await service.extract(payloadFor('/article-for-formats', { accountId, maxCacheAgeMs: 60_000, format: 'text' })));
    expect(first.fromCache).toBe(false);
    const second = expectSuccess(await service.extract(payloadFor('/article-for-formats', { accountId, maxCacheAgeMs: 60_000, includeImages: true })));
    expect(second.fromCache).toBe(true);
    expect(second.content).toContain(`![The lamp](${site.url}/images/lamp.jpg)`);
    expect(second.page.images.map((image) => image.url)).toContain(`${site.url}/images/lamp.jpg`);
  });

  it('returns the chunks that match the query, joined by [...]', async () => {
    const result = expectSuccess(await service.extract(payloadFor('/article', { query: 'sourdough bread crust oven', chunksPerSource: 1 })));
    expect(result.content).toMatch(/sourdough/i);
    expect(result.content).not.toContain('lighthouse keeper climbed');
    const twoChunks = expectSuccess(await service.extract(payloadFor('/article', { query: 'sourdough bread crust oven', chunksPerSource: 2 })));
    expect(twoChunks.content.split(' [...] ')).toHaveLength(2);
  });

  it('basic depth falls back to the browser for a page that needs JavaScript', async () => {
    const result = expectSuccess(await service.extract(payloadFor('/javascript-only')));
    expect(result.content).toContain('only exists after the script runs');
  });

  it('basic depth reads a post from its <noscript> copy instead of rendering the page', async () => {
    const result = expectSuccess(await service.extract(payloadFor('/noscript-post')));
    expect(result.content).toContain('pilots now bring ships in at low tide');
    expect(result.content).not.toContain('only exists after the script runs');
  });

  it('advanced depth renders the page: content added by scripts is included, basic misses it', async () => {
    const basic = expectSuccess(await service.extract(payloadFor('/late-table')));
    expect(basic.content).not.toContain('Northwind');
    const advanced = expectSuccess(await service.extract(payloadFor('/late-table', { extractDepth: 'advanced' })));
    expect(advanced.content).toContain('Northwind');
    expect(advanced.content).toContain('4711');
  });

  it("renders a request's pages in its own session: the request's id is the key", async () => {
    const keys: string[] = [];
    const sessions = { render: (key: string, url: string, options: { deadlineMs: number }) => (keys.push(key), browser.render(url, options)) };
    const withSessions = new ExtractionService({ policy, browser, renderSessions: sessions, parser, pages, onError: (error) => unexpectedErrors.push(error) });
    const request = payloadFor('/late-table', { extractDepth: 'advanced' });
    expect(expectSuccess(await withSessions.extract(request)).content).toContain('Northwind');
    expect(keys).toEqual([request.requestId]);
  });

  it('extracts the text of a PDF', async () => {
    const result = expectSuccess(await service.extract(payloadFor('/report.pdf')));
    expect(result.content).toContain('Tonnage handled rose');
  });

  it('extracts a plain-text file', async () => {
    const result = expectSuccess(await service.extract(payloadFor('/notes.txt')));
    expect(result.content).toContain('tide tables');
  });

  it.each([
    ['a missing page', '/missing', 'HTTP 404'],
    ['a binary file', '/archive.bin', /^Unsupported content type: .*octet-stream/],
    ['an image', '/photo.png', 'Unsupported content type: image/png'],
    ['a challenge page (403 "Just a moment...")', '/challenge', /^Blocked by the site \(.+\)$/],
  ])('fails %s with a clear reason', async (_label, path, reason) => {
    const result = expectFailure(await service.extract(payloadFor(path)));
    expect(result.url).toBe(`${site.url}${path}`);
    expect(result.error).toMatch(reason);
  });

  it('fails the challenge page at advanced depth too: the browser sees the same block', async () => {
    const result = expectFailure(await service.extract(payloadFor('/challenge', { extractDepth: 'advanced' })));
    expect(result.error).toMatch(/^Blocked by the site/);
  });

  it('fails a server slower than the deadline with the caller’s timeout', async () => {
    const startedAt = performance.now();
    const result = expectFailure(await service.extract(payloadFor('/slow', { timeoutMs: 1_000 })));
    expect(result.error).toBe('Timed out after 1s');
    expect(performance.now() - startedAt).toBeLessThan(5_000);
  });

  it('refuses addresses outside the egress policy and invalid URLs', async () => {
    const blocked = expectFailure(await service.extract({ ...payloadFor('/article'), url: `http://127.0.0.2:${site.port}/article` }));
    expect(blocked.error).toBe('URL is not supported');
    const invalid = expectFailure(await service.extract({ ...payloadFor('/article'), url: 'not a url' }));
    expect(invalid.error).toMatch(/^Invalid URL/);
  });

  it('answers before the page is stored when the caller asks (storeAfterAnswer), and stores it with its index entry right after', async () => {
    const url = `${site.url}/article-stored-after`;
    const answered = expectSuccess(await service.extract(payloadFor('/article-stored-after', { accountId, storeAfterAnswer: true })));
    expect(answered.content).toContain('spiral stairs');
    // The store is still running: it needs Postgres's answers, which no microtask between the answer and this line can
    // have brought.
    expect(service.storesPending).toBe(1);
    await service.storesSettled();
    expect(service.storesPending).toBe(0);
    const stored = await pages.findByUrl(url, { accountId });
    expect(stored?.page.contentHash).toBe(answered.page.contentHash);
    // The index entry the parse did not prepare was prepared by the store: the page has its chunks.
    expect(await prisma.documentChunk.count({ where: { documentId: stored?.id } })).toBeGreaterThan(0);
  });

  it('stores a successful extraction and serves it from the store within the freshness window', async () => {
    const first = expectSuccess(await service.extract(payloadFor('/article-for-cache', { accountId, maxCacheAgeMs: 60_000 })));
    expect(first.fromCache).toBe(false);
    const stored = await pages.findByUrl(`${site.url}/article-for-cache`, { accountId });
    expect(stored?.page.title).toBe('The Lighthouse Keeper');
    expect(stored?.page.contentHash).toBe(first.page.contentHash);

    const hitsBefore = site.requests.filter((request) => request === 'GET /article-for-cache').length;
    const second = expectSuccess(await service.extract(payloadFor('/article-for-cache', { accountId, maxCacheAgeMs: 60_000 })));
    expect(second.fromCache).toBe(true);
    expect(second.content).toContain('spiral stairs');
    expect(second.page).toMatchObject({ url: `${site.url}/article-for-cache`, title: 'The Lighthouse Keeper', text: first.page.text, favicon: `${site.url}/static/icon.png` });
    expect(site.requests.filter((request) => request === 'GET /article-for-cache').length).toBe(hitsBefore);

    // Without a freshness window the page is fetched again.
    const fresh = expectSuccess(await service.extract(payloadFor('/article-for-cache', { accountId })));
    expect(fresh.fromCache).toBe(false);
  });

  it('stores nothing for an account with zero data retention', async () => {
    const result = expectSuccess(await service.extract(payloadFor('/article-zero-retention', { accountId: zeroRetentionAccountId, maxCacheAgeMs: 60_000 })));
    expect(result.page.title).toBe('The Lighthouse Keeper');
    expect(await pages.findByUrl(`${site.url}/article-zero-retention`, { accountId: zeroRetentionAccountId })).toBeNull();
    expect(await pages.findByUrl(`${site.url}/article-zero-retention`)).toBeNull();
  });

  it('parses a response once: a later extraction of the same bytes takes the page the account stored from them', async () => {
    let parses = 0;
    const counting: ExtractionServiceOptions['parser'] = {
      html: (document, deadlineMs) => {
        parses += 1;
        return parser.html(document, deadlineMs);
      },
      pdf: (...args) => parser.pdf(...args),
      text: (...args) => parser.text(...args),
    };
    const counted = new ExtractionService({ policy, browser, parser: counting, pages, onError: (error) => unexpectedErrors.push(error) });
    const url = `${site.url}/article-for-reuse`;

    // No freshness window: every request fetches the page.
    const first = expectSuccess(await counted.extract(payloadFor('/article-for-reuse', { accountId, includeImages: true })));
    expect(parses).toBe(1);
    const stored = await prisma.document.findFirstOrThrow({ where: { url, ownerAccountId: accountId } });
    expect(stored.sourceFingerprint).toMatch(/^[0-9a-f]{64}$/);

    const second = expectSuccess(await counted.extract(payloadFor('/article-for-reuse', { accountId, includeImages: true })));
    expect(parses).toBe(1);
    expect(second.fromCache).toBe(false);
    expect(second.content).toBe(first.content);
    expect(second.page).toMatchObject({ url, title: first.page.title, text: first.page.text, markdown: first.page.markdown, contentHash: first.page.contentHash });
    expect(second.page.images).toEqual(first.page.images.map((image) => ({ url: image.url, alt: image.alt ?? '' })));
    // The icon the page declares, not the conventional /favicon.ico.
    expect(second.page.favicon).toBe(`${site.url}/static/icon.png`);
    // Marked fetched, as a save of the unchanged page would.
    const touched = await prisma.document.findFirstOrThrow({ where: { url, ownerAccountId: accountId } });
    expect(touched.fetchedAt.getTime()).toBeGreaterThan(stored.fetchedAt.getTime());
    expect(touched.id).toBe(stored.id);

    // The same bytes under another charset are another text: parsed again. (Not a Latin label: UTF-8 bytes under one
    // are read as the UTF-8 they are.)
    reusedCharset = 'koi8-r';
    reusedArticleHtml = articleHtml.replace('spiral stairs', 'spiral stairs café');
    const recoded = expectSuccess(await counted.extract(payloadFor('/article-for-reuse', { accountId })));
    expect(parses).toBe(2);
    reusedCharset = 'utf-8';
    const decoded = expectSuccess(await counted.extract(payloadFor('/article-for-reuse', { accountId })));
    expect(parses).toBe(3);
    expect(decoded.content).toContain('spiral stairs café');
    expect(recoded.content).not.toContain('spiral stairs café');

    // Other bytes are parsed, and their page replaces the stored one.
    reusedArticleHtml = articleHtml.replace('spiral stairs', 'iron ladder');
    const changed = expectSuccess(await counted.extract(payloadFor('/article-for-reuse', { accountId })));
    expect(parses).toBe(4);
    expect(changed.content).toContain('iron ladder');
    expect((await pages.findByUrl(url, { accountId }))?.page.text).toContain('iron ladder');

    // Nothing is reused where nothing would be stored: a keyless caller, an account with zero data retention.
    await counted.extract(payloadFor('/article-for-reuse'));
    await counted.extract(payloadFor('/article-for-reuse'));
    await counted.extract(payloadFor('/article-for-reuse', { accountId: zeroRetentionAccountId }));
    await counted.extract(payloadFor('/article-for-reuse', { accountId: zeroRetentionAccountId }));
    expect(parses).toBe(8);
    // Nor at advanced depth, which renders every page.
    const rendered = expectSuccess(await counted.extract(payloadFor('/article-for-reuse', { accountId, extractDepth: 'advanced' })));
    expect(rendered.content).toContain('iron ladder');
    expect(parses).toBe(9);
    reusedArticleHtml = articleHtml;
  });

  it('extracts the page itself when the store cannot be asked for a page it made from the same response', async () => {
    const errors: unknown[] = [];
    const unreachable: ExtractionServiceOptions['pages'] = {
      save: async () => null,
      getFreshMany: async () => new Map(),
      refetched: async () => {
        throw new Error('connection refused');
      },
    };
    const withoutStore = new ExtractionService({ policy, browser, parser, pages: unreachable, onError: (error) => errors.push(error) });
    const result = expectSuccess(await withoutStore.extract(payloadFor('/article', { accountId })));
    expect(result.content).toContain('spiral stairs');
    expect(errors).toEqual([new Error('connection refused')]);
  });

  describe('through the extract queue', () => {
    let queue: QueueUnderTest;

    beforeAll(async () => (queue = await startExtractQueue(service, 4)));
    afterAll(() => queue?.close());

    it('answers one job per URL, successes and per-URL failures alike', async () => {
      const [article, missing] = await Promise.all([
        queue.jobQueue.enqueueAndWait(ExtractUrlJob, payloadFor('/article'), { timeoutMs: 30_000 }),
        queue.jobQueue.enqueueAndWait(ExtractUrlJob, payloadFor('/missing'), { timeoutMs: 30_000 }),
      ]);
      if (!article.ok || missing.ok) throw new Error('expected a page and a failure');
      expect(article.page.title).toBe('The Lighthouse Keeper');
      expect(missing.error).toBe('HTTP 404');
      expect(await queue.worker.metrics.text()).toMatch(/sift_jobs_completed_total\{queue="extract",job="extract-url"\} 2/);
    });

    it('carries a page\'s words once: the content asked for, and the whole text and markdown only when asked for', async () => {
      const direct = expectSuccess(await service.extract(payloadFor('/article')));
      const [narrow, whole] = await Promise.all([
        queue.jobQueue.enqueueAndWait(ExtractUrlJob, payloadFor('/article'), { timeoutMs: 30_000 }),
        queue.jobQueue.enqueueAndWait(ExtractUrlJob, { ...payloadFor('/article'), format: 'text', wholePage: true }, { timeoutMs: 30_000 }),
      ]);
      if (!narrow.ok || !whole.ok) throw new Error('expected two pages');
      expect(narrow.content).toBe(direct.page.markdown);
      expect(narrow.page).not.toHaveProperty('text');
      expect(narrow.page).not.toHaveProperty('markdown');
      const { text: _text, markdown: _markdown, ...metadata } = direct.page;
      expect(narrow.page).toEqual(metadata);
      // The whole page is the one page, whole, and its words travel once: no content beside it.
      expect(whole.page).toEqual(direct.page);
      expect(whole).not.toHaveProperty('content');
    });
  });
});
