// The crawl benchmark's JS-site row, end to end: POST /crawl to a gateway process whose crawler worker (its own
// process) crawls a client-rendered version of part of the Git documentation site (client-rendered-site.ts: every page
// a shell whose content and links a script inserts), against Crawlee's PlaywrightCrawler rendering the same pages in
// the same Chromium with the same render concurrency and the same extraction function, in a process of its own
// (crawlee-playwright-crawl.ts); then POST /map of the same site. Every process runs compiled, as bench/crawl/run.ts.
// Sift gets the static row's request (extract_depth basic): its crawler decides by itself which pages need a browser.
// Run: node scripts/run-ts.js bench/crawl/js-site.ts (JS_SITE_BUNDLE_KB=300: every page loads a shared script bundle)
import { join } from 'node:path';
import { usableCpuCount } from '@sift/config';
import { createBenchKey, startGateway, type GatewayProcess } from '../search-quality/search-stack';
import { benchStackEnv, dropBenchQueues, forgetStoredPages, migrateBenchDatabase, postJson, startBenchWorker } from './bench-stack';
import { startClientRenderedSite } from './client-rendered-site';
import { cpuLine, withCpuSplit } from './crawl-cpu';
import { startPeerProcess } from './peer-process';

// Its own database: bench/crawl/run.ts forgets the stored pages of every loopback port in sift_bench_crawl.
const DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/sift_bench_crawl_js';
// Pages rendered at once: one crawl's renders in the crawler worker (CRAWL_RENDER_PAGES, its default, within
// BROWSER_PAGES) and Crawlee's concurrency, where every request is a render. Two on the benchmark's two-core machine.
const RENDER_CONCURRENCY = 2;
// The static row's request. The site has 60 pages a crawler that obeys robots.txt can reach (checked at start), so
// the limit never binds: near its limit Crawlee adds a page's links in batches of the remaining budget with a
// second's pause between batches, and the row would time those pauses instead of its renders.
const MAX_DEPTH = 2;
const MAX_BREADTH = 500;
const LIMIT = 500;
const CRAWLABLE_PAGES = 60;
// JS_SITE_BUNDLE_KB: every page loads a shared, cacheable script bundle of this many KB first (a client-rendered
// site's framework); 0 (the default) serves each page with its inline script alone.
const BUNDLE_KILOBYTES = Number(process.env.JS_SITE_BUNDLE_KB ?? 0);
const TIMEOUT_SECONDS = 150;

interface RunFigures {
  /** Requests the site answered during the run, set by the benchmark (pages, robots.txt). */
  requests?: number;
  /** Results returned (Sift) or pages rendered and extracted (Crawlee). */
  pages: number;
  /** Of those, pages with content: a shell that was not rendered has none. */
  pagesWithContent: number;
  seconds: number;
  /** Crawlee only: requests that failed after its retries. */
  failed?: number;
}

async function runSift(gateway: GatewayProcess, apiKey: string, root: string): Promise<RunFigures> {
  const startedAt = performance.now();
  const body = await postJson<{ results: { raw_content: string }[] }>(gateway, apiKey, '/crawl', {
    url: root,
    max_depth: MAX_DEPTH,
    max_breadth: MAX_BREADTH,
    limit: LIMIT,
    format: 'markdown',
    allow_external: false,
    timeout: TIMEOUT_SECONDS,
  });
  return {
    pages: body.results.length,
    pagesWithContent: body.results.filter((result) => result.raw_content.trim() !== '').length,
    seconds: (performance.now() - startedAt) / 1000,
  };
}

/** The same depth as the crawl: a map that reads rendered links lists every page the crawl can reach. */
async function runMap(gateway: GatewayProcess, apiKey: string, root: string): Promise<{ urls: string[]; seconds: number }> {
  const startedAt = performance.now();
  const body = await postJson<{ results: string[] }>(gateway, apiKey, '/map', {
    url: root,
    max_depth: MAX_DEPTH,
    max_breadth: MAX_BREADTH,
    limit: LIMIT,
    allow_external: false,
    timeout: TIMEOUT_SECONDS,
  });
  return { urls: body.results, seconds: (performance.now() - startedAt) / 1000 };
}

/** A line on stderr as each step ends: a run of several minutes on a loaded machine shows where it is. */
function progress(step: string, startedAt: number): void {
  console.error(`js-site: ${step} (${((performance.now() - startedAt) / 1000).toFixed(1)} s)`);
}

async function main(): Promise<void> {
  const env = benchStackEnv(DATABASE_URL, 'crawl-js', { CRAWLER_PORT: '0', RATE_LIMIT_CRAWL_PER_MINUTE: '100000', BROWSER_PAGES: String(RENDER_CONCURRENCY),
    CRAWL_RENDER_PAGES: String(RENDER_CONCURRENCY),
  });
  await migrateBenchDatabase(DATABASE_URL);
  // Everything started is stopped at the end, also when a later start fails (no process outlives the benchmark).
  const started: (() => Promise<unknown>)[] = [];
  const stopAll = () => Promise.allSettled(started.map((stop) => stop()));
  // Interrupted (Ctrl-C, a timeout), the child processes are stopped too, not left consuming the queue.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => void stopAll().finally(() => process.exit(130)));
  }
  const startedAt = performance.now();
  try {
    const site = await startClientRenderedSite({ bundleKilobytes: BUNDLE_KILOBYTES });
    started.push(() => site.close());
    if (site.crawlablePages !== CRAWLABLE_PAGES) throw new Error(`the client-rendered site has ${site.crawlablePages} crawlable pages, not ${CRAWLABLE_PAGES}`);
    const worker = await startBenchWorker('crawler-worker', env);
    started.push(() => worker.stop());
    const gateway = await startGateway(DATABASE_URL, env);
    started.push(() => gateway.stop());
    const root = `${site.origin}/index.html`;
    const apiKey = await createBenchKey(DATABASE_URL);
    // How many requests a measured run sent to the site.
    const counted = async (run: () => Promise<RunFigures>): Promise<RunFigures> => {
      const before = site.requestsServed();
      const figures = await run();
      return { ...figures, requests: site.requestsServed() - before };
    };
    progress('stack started', startedAt);
    // One warm-up of each (module loading, JIT, the first browser launch), a first crawl as in bench/crawl/run.ts.
    await forgetStoredPages(DATABASE_URL, site.origin);
    await runSift(gateway, apiKey, root);
    progress('warm-up: sift', startedAt);
    const crawlee = await startPeerProcess<RunFigures>(
      join(__dirname, 'crawlee-playwright-crawl.ts'),
      [root, String(RENDER_CONCURRENCY), String(MAX_DEPTH), String(LIMIT)],
      'Crawlee PlaywrightCrawler',
    );
    started.push(() => crawlee.stop());
    progress('warm-up: crawlee PlaywrightCrawler', startedAt);
    await forgetStoredPages(DATABASE_URL, site.origin);
    const [sift, siftCpu] = await withCpuSplit(DATABASE_URL, { gateway, worker }, () => counted(() => runSift(gateway, apiKey, root)));
    progress('measured: sift', startedAt);
    const [crawleeRun, crawleeCpu] = await withCpuSplit(DATABASE_URL, { worker: crawlee }, () => counted(() => crawlee.run()));
    progress('measured: crawlee PlaywrightCrawler', startedAt);
    const map = await runMap(gateway, apiKey, root);

    // Pages per second count pages with content only: a shell returned as it was served is not a crawled page.
    const rate = (figures: RunFigures): number => figures.pagesWithContent / figures.seconds;
    const line = (label: string, figures: RunFigures): string =>
      `${label.padEnd(38)} ${figures.pages} pages returned, ${figures.pagesWithContent} with content, in ${figures.seconds.toFixed(2)} s = ${rate(figures).toFixed(2)} pages/s` +
      `, ${figures.requests} requests to the site${figures.failed ? `, ${figures.failed} failed` : ''}`;
    const paths = map.urls.map((url) => url.replace(site.origin, ''));
    console.log(
      `JS site: ${site.pagesByDepth.reduce((sum, count) => sum + count, 0)} client-rendered pages (by depth ${site.pagesByDepth.join(' / ')}), ${site.crawlablePages} allowed by robots.txt, no sitemap; ` +
        `depth ${MAX_DEPTH}, breadth ${MAX_BREADTH}, limit ${LIMIT}, ${RENDER_CONCURRENCY} pages rendered at once, markdown via @sift/content-extraction, ${usableCpuCount()} usable CPUs` +
        (BUNDLE_KILOBYTES > 0 ? `; every page loads a shared ${BUNDLE_KILOBYTES} KB script bundle, cacheable` : ''),
    );
    console.log(line('sift POST /crawl', sift));
    console.log(line('crawlee PlaywrightCrawler', crawleeRun));
    console.log(`ratio sift/crawlee ${(rate(sift) / rate(crawleeRun)).toFixed(2)}`);
    console.log(`POST /map ${map.urls.length} URLs in ${(map.seconds * 1000).toFixed(0)} ms: ${paths.slice(0, 10).join(' ')}${paths.length > 10 ? ' …' : ''}`);
    console.log(cpuLine('sift', sift.pagesWithContent, siftCpu));
    console.log(cpuLine('crawlee PlaywrightCrawler', crawleeRun.pagesWithContent, crawleeCpu, 'crawlee process'));
  } finally {
    await stopAll();
    await dropBenchQueues(env).catch((error: unknown) => console.error('could not drop the benchmark\'s queues', error));
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
