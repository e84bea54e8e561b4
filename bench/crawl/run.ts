// Crawl benchmark: Sift's crawl engine against Crawlee's CheerioCrawler on the Git documentation site served on
// loopback, with the same depth, concurrency and extraction function; then the time of a map of the same site.
// Run: node scripts/run-ts.js bench/crawl/run.ts
import { CheerioCrawler, Configuration, type EnqueueLinksOptions } from '@crawlee/cheerio';
import { extractHtml } from '@sift/content-extraction';
import { startGitDocsSite } from '@sift/testing';
import { createDefaultCrawlDependencies, runCrawl, type CrawlRequest } from '../../apps/crawler-worker/src/crawl';

const CONCURRENCY = 4;
const MAX_DEPTH = 2;
const LIMIT = 1000;
const loopbackPolicy = { allowCidrs: ['127.0.0.1/32'] };

interface RunFigures {
  pages: number;
  seconds: number;
}

async function runSift(root: string): Promise<RunFigures> {
  const request: CrawlRequest = {
    url: root,
    chunksPerSource: 3,
    maxDepth: MAX_DEPTH,
    maxBreadth: 500,
    limit: LIMIT,
    allowExternal: false,
    includeImages: false,
    extractDepth: 'basic',
    format: 'markdown',
    includeFavicon: false,
    timeoutMs: 150_000,
    mode: 'crawl',
  };
  const dependencies = createDefaultCrawlDependencies({
    policy: loopbackPolicy,
    settings: { concurrency: CONCURRENCY, maxConcurrentPerHost: CONCURRENCY },
  });
  const startedAt = performance.now();
  const outcome = await runCrawl(request, dependencies);
  return { pages: outcome.pages.length, seconds: (performance.now() - startedAt) / 1000 };
}

async function runCrawlee(root: string): Promise<RunFigures> {
  let pages = 0;
  const configuration = new Configuration({ persistStorage: false, purgeOnStart: true, logLevel: 0 });
  const crawler = new CheerioCrawler(
    {
      minConcurrency: CONCURRENCY,
      maxConcurrency: CONCURRENCY,
      maxRequestsPerCrawl: LIMIT,
      respectRobotsTxtFile: true,
      async requestHandler({ request, body, enqueueLinks }) {
        const depth = Number(request.userData.depth ?? 0);
        extractHtml(body.toString(), { baseUrl: request.loadedUrl ?? request.url });
        pages += 1;
        if (depth >= MAX_DEPTH) return;
        const options: EnqueueLinksOptions = {
          strategy: 'same-hostname',
          transformRequestFunction: (next) => ({ ...next, userData: { depth: depth + 1 } }),
        };
        await enqueueLinks(options);
      },
    },
    configuration,
  );
  const startedAt = performance.now();
  await crawler.run([{ url: root, userData: { depth: 0 } }]);
  return { pages, seconds: (performance.now() - startedAt) / 1000 };
}

async function runMap(root: string): Promise<RunFigures> {
  const request: CrawlRequest = {
    url: root,
    chunksPerSource: 3,
    maxDepth: 1,
    maxBreadth: 500,
    limit: LIMIT,
    allowExternal: false,
    includeImages: false,
    extractDepth: 'basic',
    format: 'markdown',
    includeFavicon: false,
    timeoutMs: 150_000,
    mode: 'map',
  };
  const startedAt = performance.now();
  const outcome = await runCrawl(request, createDefaultCrawlDependencies({ policy: loopbackPolicy }));
  return { pages: outcome.urls.length, seconds: (performance.now() - startedAt) / 1000 };
}

async function main(): Promise<void> {
  const site = await startGitDocsSite();
  const root = `${site.origin}/index.html`;
  try {
    // One warm-up of each so neither pays for module loading or JIT in the measured run.
    await runSift(root);
    await runCrawlee(root);
    const sift = await runSift(root);
    const crawlee = await runCrawlee(root);
    const map = await runMap(root);
    const rate = (figures: RunFigures): number => figures.pages / figures.seconds;
    console.log(`concurrency ${CONCURRENCY}, depth ${MAX_DEPTH}, robots.txt obeyed, extraction: @sift/content-extraction extractHtml`);
    console.log(`sift    ${sift.pages} pages in ${sift.seconds.toFixed(2)} s = ${rate(sift).toFixed(1)} pages/s`);
    console.log(`crawlee ${crawlee.pages} pages in ${crawlee.seconds.toFixed(2)} s = ${rate(crawlee).toFixed(1)} pages/s`);
    console.log(`ratio sift/crawlee ${(rate(sift) / rate(crawlee)).toFixed(2)}`);
    console.log(`map     ${map.pages} URLs in ${(map.seconds * 1000).toFixed(0)} ms`);
  } finally {
    await site.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
