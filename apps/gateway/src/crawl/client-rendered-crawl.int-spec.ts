import { detectBlockPage } from '@sift/content-extraction';
import { callGateway, type ClientRenderedSite, createTestAccount, createTestKey, type GatewayAnswer, PAGE_FOUND, pagesFoundIn, startClientRenderedSite } from '@sift/testing';
import { randomBytes } from 'node:crypto';
import { startTestGateway, TestGateway } from '../testing/gateway-harness';
import { startWorkerProcess, WorkerProcess } from '../testing/worker-process';

interface CrawlBody {
  base_url: string;
  results: Array<{ url: string; raw_content: string }>;
}

interface MapBody {
  base_url: string;
  results: string[];
}

/** The samples of one metric in the Prometheus text format, each with its labels. */
function samplesOf(metrics: string, name: string): Array<{ labels: Record<string, string>; value: number }> {
  return metrics.split('\n').flatMap((line) => {
    const sample = /^(\w+)(?:\{([^}]*)\})? (\S+)$/.exec(line);
    if (!sample || sample[1] !== name) return [];
    const labels = Object.fromEntries([...(sample[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map(([, label, value]) => [label, value]));
    return [{ labels, value: Number(sample[3]) }];
  });
}

/** A counter's total over the samples whose label has the given value. */
function totalOf(metrics: string, name: string, label: string, value: string): number {
  return samplesOf(metrics, name)
    .filter((sample) => sample.labels[label] === value)
    .reduce((sum, sample) => sum + sample.value, 0);
}

// A page that needs rendering takes about a second in Chromium on a small machine; a crawl here renders a handful.
jest.setTimeout(60_000);

// POST /crawl and POST /map over HTTP against a real crawler worker process, on a documentation site whose pages,
// links included, exist only once their scripts have run, and on the same site served as plain HTML.
describe('POST /crawl and POST /map of a site its scripts build', () => {
  // The gateway stays; each describe below has a crawler worker of its own on this queue, one after the other.
  const queuePrefix = `test-${randomBytes(4).toString('hex')}`;
  let gateway: TestGateway;

  beforeAll(async () => {
    gateway = await startTestGateway({ QUEUE_PREFIX: queuePrefix, FETCH_ALLOW_CIDRS: '127.0.0.1/32' });
  }, 120_000);

  afterAll(async () => {
    await gateway?.close();
  });

  async function newKey(): Promise<string> {
    const account = await createTestAccount(gateway.prisma, { plan: 'growth' });
    return (await createTestKey(gateway.prisma, account.id)).apiKey;
  }

  function pagesOf(site: ClientRenderedSite) {
    return Object.values(site.pages);
  }

  /** What pagesFoundIn reads when every page came back with its own text. */
  function everyPageFound(site: ClientRenderedSite): Record<string, string> {
    return Object.fromEntries(pagesOf(site).map((page) => [page.url, PAGE_FOUND]));
  }

  // First and on a worker process of its own, so no page rendered by the tests below counts in its metrics.
  describe('served as plain HTML', () => {
    let worker: WorkerProcess;
    let site: ClientRenderedSite;
    let metricsUrl: string;

    beforeAll(async () => {
      site = await startClientRenderedSite({ rendering: 'server' });
      worker = await startWorkerProcess('crawler-worker', { QUEUE_PREFIX: queuePrefix });
      metricsUrl = worker.healthUrl;
    }, 120_000);

    afterAll(async () => {
      await Promise.all([worker?.stop(), site?.close()]);
    });

    it('crawls every page from its HTML and never starts a browser to do it; a challenge served with 200 is no page', async () => {
      const { status, body } = await callGateway<CrawlBody>(gateway.baseUrl, 'POST', '/crawl', { apiKey: await newKey(), body: { url: site.url, max_depth: 2 } });
      expect(status).toBe(200);
      expect(site.hits.get(new URL(site.challenge.url).pathname) ?? 0).toBeGreaterThan(0);
      expect(pagesFoundIn(site, body.results)).toEqual(everyPageFound(site));
      expect(body.results.map((result) => result.url).sort()).toEqual(pagesOf(site).map((page) => page.url).sort());

      const metrics = await callGateway<string>(metricsUrl, 'GET', '/metrics');
      expect(metrics.status).toBe(200);
      const openBrowsers = samplesOf(metrics.body, 'sift_browser_pool_open_browsers').map((sample) => sample.value);
      const acquired = (via: string) => totalOf(metrics.body, 'sift_pages_acquired_total', 'via', via);
      expect({ openBrowsers, rendered: acquired('render') }).toEqual({ openBrowsers: [0], rendered: 0 });
      // The pages are new to the store (a fresh path and text per run), so each one was fetched, none taken from a copy.
      expect(acquired('fetch')).toBeGreaterThanOrEqual(pagesOf(site).length);
    });
  });

  describe('built by scripts in the browser', () => {
    let worker: WorkerProcess;
    let site: ClientRenderedSite;
    let crawl: Promise<GatewayAnswer<CrawlBody>> | undefined;

    beforeAll(async () => {
      site = await startClientRenderedSite({ rendering: 'client' });
      worker = await startWorkerProcess('crawler-worker', { QUEUE_PREFIX: queuePrefix });
    }, 120_000);

    afterAll(async () => {
      await Promise.all([worker?.stop(), site?.close()]);
    });

    /** One crawl of the whole site (depth 2 reaches every page), shared by the tests that read it. */
    function crawlSite(): Promise<GatewayAnswer<CrawlBody>> {
      crawl ??= newKey().then((apiKey) => callGateway<CrawlBody>(gateway.baseUrl, 'POST', '/crawl', { apiKey, body: { url: site.url, max_depth: 2 } }));
      return crawl;
    }

    it('crawls every page, each with the text its script writes, following the links its scripts add', async () => {
      const { status, body } = await crawlSite();
      expect(status).toBe(200);
      expect(body.base_url).toBe(site.url);
      expect(pagesFoundIn(site, body.results)).toEqual(everyPageFound(site));
    });

    it('fetches the bot-challenge page it links to but returns it as no page, neither its text nor an empty one', async () => {
      const challenge = site.challenge;
      const { status, body } = await crawlSite();
      expect(status).toBe(200);
      // It was reached (so it was judged), and what came back is the site's four pages and nothing else.
      expect(site.hits.get(new URL(challenge.url).pathname) ?? 0).toBeGreaterThan(0);
      expect(body.results.map((result) => result.url).sort()).toEqual(pagesOf(site).map((page) => page.url).sort());
      for (const result of body.results) {
        expect({ url: result.url, challenge: result.raw_content.includes(challenge.phrase) || /just a moment/i.test(result.raw_content), empty: result.raw_content.trim() === '' }).toEqual({
          url: result.url,
          challenge: false,
          empty: false,
        });
      }
      // And it is what a crawler must refuse: the block-page detector calls it one (read after the crawl's hits are counted).
      const direct = await callGateway<string>(site.origin, 'GET', new URL(challenge.url).pathname);
      expect(detectBlockPage({ status: direct.status, html: direct.body })).toMatch(/HTTP 403/);
      expect(detectBlockPage({ status: 200, html: direct.body })).toMatch(/Cloudflare/);
    });

    it('maps every page URL, found through the links the scripts add', async () => {
      const { status, body } = await callGateway<MapBody>(gateway.baseUrl, 'POST', '/map', { apiKey: await newKey(), body: { url: site.url, max_depth: 2 } });
      expect(status).toBe(200);
      expect(body.results).toEqual(expect.arrayContaining(pagesOf(site).map((page) => page.url)));
    });
  });
});
