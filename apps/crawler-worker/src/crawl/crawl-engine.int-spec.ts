import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BrowserPool } from '@sift/browser';
import { createPrismaClient } from '@sift/persistence';
import { FixtureServer, startFixtureServer } from '@sift/safe-fetch';
import { inlineContentParser, PageRepository } from '@sift/pages';
import type { WebPage } from '@sift/content-extraction';
import type { CrawlPage } from '@sift/queue-contracts';
import { CHUNK_SEPARATOR } from '@sift/ranking';
import { ContentParsingPool } from '@sift/task-pool';
import { createTestAccount, GitDocsSite, GIT_DOCS_SITE_ROOT, startGitDocsSite } from '@sift/testing';
import { CrawlDependencies } from './crawl-dependencies';
import { runCrawl } from './crawl-engine';
import { CrawlRequest } from './crawl-request';
import { createDefaultCrawlDependencies } from './default-crawl-dependencies';
import { ForbiddenTargetError } from './forbidden-target.error';

interface CrawlExpectations {
  reachable_pages: string[];
  pages_by_depth: Record<string, number>;
  unreachable_from_seed_but_in_sitemap: string[];
  reachable_from_seed_when_obeying_robots_txt_disallow_technical: number;
  html_pages_in_sitemap: number;
}

const expectations = JSON.parse(
  readFileSync(path.join(GIT_DOCS_SITE_ROOT, '..', 'crawl-expectations.json'), 'utf8'),
) as CrawlExpectations;
const isTechnical = (page: string): boolean => page.startsWith('technical/');
const loopbackPolicy = { allowCidrs: ['127.0.0.1/32'] };
// A full crawl extracts 219 pages, some of them several hundred kilobytes of HTML.
const CRAWL_TEST_TIMEOUT_MS = 150_000;

/** The pool's sessions, each render's URL recorded in `rendered`. */
function countingSessions(browser: BrowserPool, rendered: string[]): Pick<BrowserPool, 'openSession'> {
  return {
    openSession: () => {
      const session = browser.openSession();
      return { render: (url, options) => (rendered.push(url), session.render(url, options)), close: () => session.close() };
    },
  };
}
jest.setTimeout(CRAWL_TEST_TIMEOUT_MS);

function crawlRequest(site: GitDocsSite, overrides: Partial<CrawlRequest> = {}): CrawlRequest {
  return {
    url: `${site.origin}/index.html`,
    chunksPerSource: 3,
    maxDepth: 2,
    maxBreadth: 500,
    limit: 1000,
    allowExternal: false,
    includeImages: false,
    extractDepth: 'basic',
    format: 'markdown',
    includeFavicon: false,
    timeoutMs: CRAWL_TEST_TIMEOUT_MS - 10_000,
    mode: 'crawl',
    ...overrides,
  };
}

/** The real dependencies, with every URL the engine asks for recorded. */
function recordingDependencies(requested: string[]): CrawlDependencies {
  const real = createDefaultCrawlDependencies({ policy: loopbackPolicy });
  return {
    ...real,
    fetchResource: (url, options) => {
      requested.push(url);
      return real.fetchResource(url, options);
    },
  };
}

const pagePath = (site: GitDocsSite, url: string): string => url.slice(`${site.origin}/`.length);
const pageHits = (site: GitDocsSite, prefix: string): number =>
  Array.from(site.hits.entries())
    .filter(([requestPath]) => requestPath.startsWith(prefix))
    .reduce((sum, [, count]) => sum + count, 0);

describe('runCrawl on the Git documentation site', () => {
  let site: GitDocsSite;

  beforeEach(async () => {
    site = await startGitDocsSite();
  });

  afterEach(async () => {
    await site.close();
  });

  it('reaches every page within depth 2 that robots.txt allows, follows no external link and drops identical content', async () => {
    const requested: string[] = [];
    const outcome = await runCrawl(crawlRequest(site), recordingDependencies(requested));

    // index.html is byte-identical to git.html, so git.html is fetched but reported once, as the seed.
    const expected = expectations.reachable_pages.filter((page) => !isTechnical(page) && page !== 'git.html');
    expect(expected).toHaveLength(expectations.reachable_from_seed_when_obeying_robots_txt_disallow_technical - 1);
    expect(outcome.pages.map((page) => pagePath(site, page.page.finalUrl)).sort()).toEqual(expected.sort());
    expect(site.hits.get('/git.html')).toBe(1);
    expect(outcome).toMatchObject({ successfulPages: expected.length, failedPages: 0, partial: false });
    expect(outcome.pages.every((page) => page.content.length > 0)).toBe(true);
    expect(outcome.pages.find((page) => page.page.finalUrl.endsWith('/git-web--browse.html'))).toBeDefined();

    expect(pageHits(site, '/technical/')).toBe(0);
    expect(site.hits.get('/robots.txt')).toBe(1);
    expect(requested.every((url) => url.startsWith(`${site.origin}/`))).toBe(true);
  });

  it('stops at depth 1: the root and the pages it links to', async () => {
    const outcome = await runCrawl(crawlRequest(site, { maxDepth: 1 }), createDefaultCrawlDependencies({ policy: loopbackPolicy }));
    // Depth 1 holds 197 pages; two are under /technical/ and git.html repeats the seed.
    expect(pageHits(site, '/technical/')).toBe(0);
    expect(outcome.pages).toHaveLength(expectations.pages_by_depth['0'] + expectations.pages_by_depth['1'] - 2 - 1);
    expect(site.hits.has('/git-bisect-lk2009.html')).toBe(false);
  });

  it('maps the links and the sitemap, finding the pages only the sitemap lists', async () => {
    const startedAt = performance.now();
    const outcome = await runCrawl(
      crawlRequest(site, { mode: 'map', maxDepth: 1 }),
      createDefaultCrawlDependencies({ policy: loopbackPolicy }),
    );
    const mapped = outcome.urls.map((url) => pagePath(site, url));

    const sitemapOnly = expectations.unreachable_from_seed_but_in_sitemap.filter((page) => !isTechnical(page));
    expect(sitemapOnly.length).toBeGreaterThan(10);
    expect(mapped).toEqual(expect.arrayContaining(sitemapOnly));
    expect(mapped.filter(isTechnical)).toEqual([]);
    const technicalPages = new Set([...expectations.reachable_pages, ...expectations.unreachable_from_seed_but_in_sitemap].filter(isTechnical));
    expect(new Set(mapped).size).toBe(expectations.html_pages_in_sitemap - technicalPages.size);
    expect(outcome.pages).toEqual([]);
    expect(outcome.successfulPages).toBe(mapped.length);
    // Map reads the root and the sitemap, not every page it lists.
    expect(site.hits.get('/git-add.html')).toBeUndefined();
    expect(performance.now() - startedAt).toBeLessThan(5000);
  });

  it('processes exactly `limit` pages', async () => {
    const outcome = await runCrawl(crawlRequest(site, { limit: 10 }), createDefaultCrawlDependencies({ policy: loopbackPolicy }));
    expect(outcome.pages).toHaveLength(10);
    expect(outcome.successfulPages).toBe(10);
    expect(outcome.partial).toBe(true);
  });

  it('follows exactly `max_breadth` links per page, in document order', async () => {
    const outcome = await runCrawl(
      crawlRequest(site, { maxDepth: 1, maxBreadth: 5 }),
      createDefaultCrawlDependencies({ policy: loopbackPolicy }),
    );
    expect(outcome.pages.map((page) => pagePath(site, page.page.finalUrl))).toEqual([
      'index.html',
      'gittutorial.html',
      'giteveryday.html',
      'user-manual.html',
      'gitcli.html',
      'git-version.html',
    ]);
    expect(outcome.partial).toBe(false);
  });

  it('returns what it gathered when the deadline passes', async () => {
    await site.close();
    site = await startGitDocsSite({ responseDelayMs: 100 });
    // Long enough for the first page on a loaded machine (cold extraction thread), short of the site's 200 pages at
    // 100 ms a response, four at a time.
    const timeoutMs = 1_500;
    const startedAt = performance.now();
    const outcome = await runCrawl(crawlRequest(site, { timeoutMs }), createDefaultCrawlDependencies({ policy: loopbackPolicy }));
    const elapsedMs = performance.now() - startedAt;

    expect(outcome.partial).toBe(true);
    expect(outcome.pages.length).toBeGreaterThan(0);
    expect(outcome.pages.length).toBeLessThan(100);
    expect(outcome.pages[0].page.finalUrl).toBe(`${site.origin}/index.html`);
    // It sends no request that would not be answered before the deadline (the host's expected latency with a margin),
    // so it may end that much early; on a loaded machine a response takes several times the site's 100 ms.
    expect(elapsedMs).toBeGreaterThanOrEqual(timeoutMs / 2);
    expect(elapsedMs).toBeLessThan(timeoutMs + 1000);
  });

  it('hands each page over as it is collected: in visit order they are the outcome\'s pages, though they came in another', async () => {
    const real = createDefaultCrawlDependencies({ policy: loopbackPolicy });
    // The root's first link answers last, so the pages are collected out of their visit order.
    let firstLink: string | undefined;
    const delayed: CrawlDependencies = {
      ...real,
      fetchResource: async (url, options) => {
        if (firstLink === undefined && !url.endsWith('/index.html') && !url.endsWith('/robots.txt')) firstLink = url;
        if (url === firstLink) await new Promise((resolve) => setTimeout(resolve, 500));
        return real.fetchResource(url, options);
      },
    };
    const handedOver: Array<{ page: CrawlPage; visitOrder: number }> = [];
    const outcome = await runCrawl(crawlRequest(site, { maxDepth: 1, maxBreadth: 12, onPage: (page, visitOrder) => handedOver.push({ page, visitOrder }) }), delayed);
    expect(outcome.pages).toHaveLength(13);
    const collectedUrls = handedOver.map(({ page }) => page.page.finalUrl);
    expect(collectedUrls.indexOf(firstLink ?? '')).toBeGreaterThan(outcome.pages.findIndex((page) => page.page.finalUrl === firstLink));
    expect([...handedOver].sort((left, right) => left.visitOrder - right.visitOrder).map(({ page }) => page)).toEqual(outcome.pages);
    expect(outcome.pages.map((page) => page.page.finalUrl)).not.toEqual(collectedUrls);
  });

  it('hands no page over with instructions: their content and order are known only at the end', async () => {
    const handedOver: CrawlPage[] = [];
    const outcome = await runCrawl(
      crawlRequest(site, { instructions: 'merging branches', maxDepth: 1, maxBreadth: 5, onPage: (page) => handedOver.push(page) }),
      createDefaultCrawlDependencies({ policy: loopbackPolicy }),
    );
    expect(outcome.pages.length).toBeGreaterThan(0);
    expect(handedOver).toEqual([]);
  });

  it('ranks the merge documentation first for instructions about merging branches', async () => {
    const outcome = await runCrawl(
      crawlRequest(site, { instructions: 'How do I merge branches together?', limit: 40, chunksPerSource: 3 }),
      createDefaultCrawlDependencies({ policy: loopbackPolicy }),
    );
    const ranked = outcome.pages.map((page) => pagePath(site, page.page.finalUrl));
    expect(ranked.slice(0, 3)).toContain('git-merge.html');
    // Pages far below the best one (a third of its score) are dropped, not listed last.
    expect(ranked.length).toBeGreaterThan(3);
    expect(ranked.length).toBeLessThan(40);
    expect(ranked).not.toContain('git-version.html');
    const mergePage = outcome.pages.find((page) => page.page.finalUrl.endsWith('/git-merge.html'));
    const chunks = mergePage?.content.split(CHUNK_SEPARATOR) ?? [];
    expect(chunks).toHaveLength(3);
    expect(chunks.every((chunk) => chunk.length <= 500)).toBe(true);
    expect(mergePage?.content.toLowerCase()).toContain('merge');
  });

  it('extracts in worker threads the same pages, in the same order, as inline', async () => {
    const request = crawlRequest(site, { maxDepth: 1, maxBreadth: 20 });
    const inline = await runCrawl(request, createDefaultCrawlDependencies({ policy: loopbackPolicy }));
    const extraction = await ContentParsingPool.start({ threads: 2, deadlineMs: 30_000, maxHeapMb: 512, maxQueue: 1_000 });
    try {
      expect(extraction.threads).toBe(2);
      const threaded = await runCrawl(request, createDefaultCrawlDependencies({ policy: loopbackPolicy, extraction }));
      expect(threaded.pages.length).toBeGreaterThan(15);
      expect(threaded).toEqual(inline);
    } finally {
      await extraction.close();
    }
  });

  it('hands the full extraction of every crawled page to the document store', async () => {
    const stored: WebPage[] = [];
    const dependencies = createDefaultCrawlDependencies({
      policy: loopbackPolicy,
      store: {
        save: async (_owner, document) => {
          stored.push(document);
          return null;
        },
        getFreshMany: async () => new Map(),
        refetched: async () => null,
      },
    });
    const outcome = await runCrawl(crawlRequest(site, { limit: 5 }), dependencies);
    expect(stored.map((document) => document.finalUrl).sort()).toEqual(outcome.pages.map((page) => page.page.finalUrl).sort());
    const seed = stored.find((document) => document.url === `${site.origin}/index.html`);
    expect(seed).toMatchObject({ title: expect.stringMatching(/git/i), isNews: false, countryHints: [] });
    expect(seed?.markdown).toMatch(/^#+ /m);
    expect(seed?.text.length).toBeGreaterThan(1000);
    expect(seed?.text).not.toBe(seed?.markdown);
    expect(seed?.language).toBe('en');
    // The job result carries the same pages, narrowed to what the answer shows: the text went to the store only.
    const byFinalUrl = (left: { finalUrl: string }, right: { finalUrl: string }) => left.finalUrl.localeCompare(right.finalUrl);
    const answered = stored.map(({ url, finalUrl, title, images, favicon }) => ({ url, finalUrl, title, images, ...(favicon ? { favicon } : {}) }));
    expect(outcome.pages.map(({ page }) => page).sort(byFinalUrl)).toEqual(answered.sort(byFinalUrl));
    expect(outcome.pages.map(({ page }) => Object.keys(page)).flat()).not.toContain('markdown');
    // A crawl in text format stores the same whole page (the store serves it to later extractions in any format);
    // its results show the text.
    stored.length = 0;
    const asText = await runCrawl(crawlRequest(site, { limit: 5, format: 'text' }), dependencies);
    expect(stored.find((document) => document.url === `${site.origin}/index.html`)?.markdown).toBe(seed?.markdown);
    expect(asText.pages.find(({ page }) => page.url === `${site.origin}/index.html`)?.content).toBe(seed?.text);
  });

  it('takes back the pages it stored from the same responses: a second crawl reads only their links and answers the same', async () => {
    const prisma = createPrismaClient(process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/sift_test', 2);
    const account = await createTestAccount(prisma, { plan: 'researcher', name: 'recrawl' });
    try {
      const pages = new PageRepository(prisma);
      const owner = { accountId: account.id };
      let pageExtractions = 0;
      let linkReads = 0;
      // The parses the pipeline runs: a whole page (with its links), or only the links of a page taken back.
      const countingParser: typeof inlineContentParser = {
        ...inlineContentParser,
        html: (document, deadlineMs) => {
          if (document.extract) pageExtractions += 1;
          else if (document.links) linkReads += 1;
          return inlineContentParser.html(document, deadlineMs);
        },
      };
      const counted = createDefaultCrawlDependencies({ policy: loopbackPolicy, extraction: countingParser, store: pages, owner });
      const request = crawlRequest(site, { limit: 8, includeImages: true, includeFavicon: true });
      const first = await runCrawl(request, counted);
      expect(first.pages).toHaveLength(8);
      expect([pageExtractions, linkReads]).toEqual([8, 0]);

      const second = await runCrawl(request, counted);
      expect([pageExtractions, linkReads]).toEqual([8, 8]);
      expect(second).toEqual(first);
      // In text format too: the stored page is the whole extraction.
      const asText = await runCrawl({ ...request, format: 'text' }, counted);
      expect(pageExtractions).toBe(8);
      const freshText = await runCrawl({ ...request, format: 'text' }, createDefaultCrawlDependencies({ policy: loopbackPolicy }));
      expect(asText).toEqual(freshText);

      // Where nothing is stored (an advanced crawl renders; here without a browser it fetches, and stores without a
      // digest), the pages are extracted again, and afterwards not taken back.
      await runCrawl({ ...request, extractDepth: 'advanced' }, counted);
      expect(pageExtractions).toBe(16);
      await runCrawl(request, counted);
      expect(pageExtractions).toBe(24);
    } finally {
      await prisma.account.delete({ where: { id: account.id } });
      await prisma.$disconnect();
    }
  });

  it('refuses a root the egress policy forbids without a single request to it', async () => {
    const blocked = createDefaultCrawlDependencies({ policy: { allowCidrs: [] } });
    await expect(runCrawl(crawlRequest(site), blocked)).rejects.toBeInstanceOf(ForbiddenTargetError);
    await expect(runCrawl(crawlRequest(site, { mode: 'map' }), blocked)).rejects.toBeInstanceOf(ForbiddenTargetError);

    const otherLoopback = site.origin.replace('127.0.0.1', '127.0.0.2');
    const loopbackOnly = createDefaultCrawlDependencies({ policy: loopbackPolicy });
    await expect(runCrawl(crawlRequest(site, { url: `${otherLoopback}/index.html` }), loopbackOnly)).rejects.toBeInstanceOf(
      ForbiddenTargetError,
    );
    expect(site.hits.size).toBe(0);
  });
});

describe('runCrawl with extract_depth advanced', () => {
  let fixture: FixtureServer;
  let browser: BrowserPool;
  // The links and text of the seed exist only once its script has run.
  const scripted = `<!doctype html><html lang="en"><head><title>Scripted</title></head><body><main id="main"></main>
<script>document.getElementById('main').innerHTML = '<h1>Rendered seed</h1><p>' + 'Text written by a script. '.repeat(20) +
'</p><a href="/second">Second page</a>';</script></body></html>`;
  const plain = `<!doctype html><html lang="en"><head><title>Second</title></head><body><main><h1>Second</h1>
<p>${'The second page is plain HTML. '.repeat(20)}</p></main></body></html>`;

  beforeAll(async () => {
    fixture = await startFixtureServer({
      '/': (_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end(scripted),
      '/second': (_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end(plain),
      '/robots.txt': (_request, response) => response.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n'),
    });
    browser = new BrowserPool({ policy: loopbackPolicy, maxConcurrentPages: 2 });
  });

  afterAll(async () => {
    await Promise.all([fixture?.close(), browser?.close()]);
  });

  const request = (extractDepth: CrawlRequest['extractDepth']): CrawlRequest => ({
    url: `${fixture.url}/`,
    chunksPerSource: 3,
    maxDepth: 1,
    maxBreadth: 20,
    limit: 10,
    allowExternal: false,
    includeImages: false,
    extractDepth,
    format: 'markdown',
    includeFavicon: false,
    timeoutMs: 30_000,
    mode: 'crawl',
  });

  it('renders pages in the browser, so script-made content and links are crawled', async () => {
    const outcome = await runCrawl(request('advanced'), createDefaultCrawlDependencies({ policy: loopbackPolicy, browser }));
    expect(outcome.pages.map((page) => page.page.finalUrl)).toEqual([`${fixture.url}/`, `${fixture.url}/second`]);
    expect(outcome.pages[0].content).toContain('Text written by a script.');
  });

  it('renders at basic depth only the pages that need it: the script-made seed, not the plain page', async () => {
    const rendered: string[] = [];
    const counting = countingSessions(browser, rendered);
    const outcome = await runCrawl(request('basic'), createDefaultCrawlDependencies({ policy: loopbackPolicy, browser: counting }));
    expect(outcome.pages.map((page) => page.page.finalUrl)).toEqual([`${fixture.url}/`, `${fixture.url}/second`]);
    expect(outcome.pages[0].content).toContain('Text written by a script.');
    expect(rendered).toEqual([`${fixture.url}/`]);
  });

  it('maps the links that exist only once the seed is rendered, rendering nothing else', async () => {
    const rendered: string[] = [];
    const counting = countingSessions(browser, rendered);
    const outcome = await runCrawl({ ...request('basic'), mode: 'map', maxDepth: 2 }, createDefaultCrawlDependencies({ policy: loopbackPolicy, browser: counting }));
    expect(outcome.urls).toEqual([`${fixture.url}/`, `${fixture.url}/second`]);
    expect(rendered).toEqual([`${fixture.url}/`]);
  });

  it('fails the script-made page, empty as served, when it has no browser', async () => {
    const outcome = await runCrawl(request('basic'), createDefaultCrawlDependencies({ policy: loopbackPolicy }));
    expect(outcome.pages).toEqual([]);
    expect(outcome.failedPages).toBe(1);
  });
});

describe('runCrawl of a site whose every page needs its scripts', () => {
  const PAGES = 8;
  let fixture: FixtureServer;
  const shell = (title: string) => `<!doctype html><html><head><title>${title}</title></head><body><div id="root"></div><script src="/app.js"></script></body></html>`;

  beforeAll(async () => {
    const routes: Parameters<typeof startFixtureServer>[0] = {
      '/robots.txt': (_request, response) => response.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n'),
      '/': (_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end(shell('Home')),
    };
    for (let page = 1; page <= PAGES; page += 1) {
      routes[`/p${page}`] = (_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end(shell(`Page ${page}`));
    }
    fixture = await startFixtureServer(routes);
  });

  afterAll(async () => {
    await fixture?.close();
  });

  it('renders within its own budget: never more pages at once than maxRenderingPages, however many need it', async () => {
    let rendering = 0;
    let mostAtOnce = 0;
    // A browser stand-in that takes its time, as Chromium does, and writes what the page's script would.
    const render = async (url: string) => {
        rendering += 1;
        mostAtOnce = Math.max(mostAtOnce, rendering);
        await new Promise((resolve) => setTimeout(resolve, 150));
        rendering -= 1;
        const path = new URL(url).pathname;
        const links = path === '/' ? Array.from({ length: PAGES }, (_, index) => `<a href="/p${index + 1}">Page ${index + 1}</a>`).join(' ') : '';
        const html = `<html><head><title>${path}</title></head><body><main><h1>${path}</h1><p>${`Rendered text of ${path}. `.repeat(20)}</p>${links}</main></body></html>`;
        return { requestedUrl: url, finalUrl: url, status: 200, html, title: path, elapsedMs: 150 };
    };
    let sessions = 0;
    let closed = 0;
    const browser = {
      openSession: () => {
        sessions += 1;
        return { render, close: async () => void (closed += 1) };
      },
    };
    const request: CrawlRequest = {
      url: `${fixture.url}/`, chunksPerSource: 3, maxDepth: 1, maxBreadth: 20, limit: 20, allowExternal: false, includeImages: false,
      extractDepth: 'basic', format: 'markdown', includeFavicon: false, timeoutMs: 30_000, mode: 'crawl',
    };
    const outcome = await runCrawl(request, createDefaultCrawlDependencies({ policy: loopbackPolicy, browser, settings: { maxRenderingPages: 2 } }));
    expect(outcome.pages).toHaveLength(PAGES + 1);
    expect(outcome.pages.every((page) => page.content.includes('Rendered text of'))).toBe(true);
    expect(mostAtOnce).toBe(2);
    // Its nine renders in one browser session, opened by the first and closed by the crawl's end.
    expect({ sessions, closed }).toEqual({ sessions: 1, closed: 1 });
  });
});

describe('runCrawl: the start page and its robots.txt', () => {
  const ROBOTS_LATENCY_MS = 300;
  const page = (title: string, links: string) =>
    `<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1><p>${`${title} holds the opening hours of the ferry. `.repeat(10)}</p>${links}</main></body></html>`;
  let fixture: FixtureServer;
  /** Each request's path with when it arrived, and when robots.txt was answered (performance.now()). */
  let arrivals: Array<{ path: string; at: number }>;
  let robotsAnsweredAt: number | undefined;

  beforeAll(async () => {
    const served = (html: string): Parameters<typeof startFixtureServer>[0][string] => (_request, response) =>
      response.writeHead(200, { 'content-type': 'text/html' }).end(html);
    fixture = await startFixtureServer({
      // robots.txt answers slowly, so any page asked for before its rules are known arrives before this answer.
      '/robots.txt': (_request, response) => {
        setTimeout(() => {
          robotsAnsweredAt = performance.now();
          response.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /closed/\nDisallow: /private\n');
        }, ROBOTS_LATENCY_MS);
      },
      '/': served(page('Harbour', '<a href="/timetable">Timetable</a> <a href="/private">Private</a>')),
      '/timetable': served(page('Timetable', '')),
      '/private': served(page('Private', '')),
      '/closed/': served(page('Closed', '<a href="/timetable">Timetable</a>')),
    });
  });

  afterAll(async () => {
    await fixture?.close();
  });

  /** A crawl from `path` on a worker that has not read the site's robots.txt yet, every request recorded. */
  async function crawlFrom(path: string, mode: CrawlRequest['mode'] = 'crawl'): Promise<Awaited<ReturnType<typeof runCrawl>>> {
    arrivals = [];
    robotsAnsweredAt = undefined;
    const real = createDefaultCrawlDependencies({ policy: loopbackPolicy });
    const recordPath = (url: string): void => {
      arrivals.push({ path: new URL(url).pathname, at: performance.now() });
    };
    const dependencies: CrawlDependencies = {
      ...real,
      fetchResource: (url, options) => (recordPath(url), real.fetchResource(url, options)),
    };
    return runCrawl(
      { url: `${fixture.url}${path}`, chunksPerSource: 3, maxDepth: 1, maxBreadth: 20, limit: 10, allowExternal: false, includeImages: false,
        extractDepth: 'basic', format: 'markdown', includeFavicon: false, timeoutMs: 30_000, mode },
      dependencies,
    );
  }

  it('asks for the start page with robots.txt, and for no page it finds before the rules are read', async () => {
    const outcome = await crawlFrom('/');
    expect(outcome.pages.map((crawled) => new URL(crawled.page.finalUrl).pathname)).toEqual(['/', '/timetable']);
    expect(robotsAnsweredAt).toBeDefined();
    const startAskedAt = arrivals.find((arrival) => arrival.path === '/')?.at ?? Number.POSITIVE_INFINITY;
    expect(startAskedAt).toBeLessThan(robotsAnsweredAt ?? 0);
    expect(arrivals.filter((arrival) => arrival.path !== '/' && arrival.path !== '/robots.txt').every((arrival) => arrival.at >= (robotsAnsweredAt ?? 0))).toBe(true);
    expect(arrivals.map((arrival) => arrival.path)).not.toContain('/private');
    expect(outcome.robotsRefused).toBe(1);
  });

  it.each(['crawl', 'map'] as const)('%s: a start page robots.txt disallows fails as robots, its content and links unused', async (mode) => {
    const outcome = await crawlFrom('/closed/', mode);
    expect(outcome.pages).toEqual([]);
    expect(outcome.urls).toEqual([]);
    expect(outcome.failures).toEqual([{ url: `${fixture.url}/closed/`, error: 'Disallowed by robots.txt', errorCode: 'robots' }]);
    expect(arrivals.map((arrival) => arrival.path)).not.toContain('/timetable');
  });
});
