// The JS-site row's peer, in a process of its own: Crawlee's PlaywrightCrawler renders the site at argv[2] in the
// system Chromium with the row's concurrency, depth and page limit (argv[3], [4], [5]), and runs Sift's extraction
// function on every rendered page (bench/crawl/js-site.ts).
// It is compiled and run the way the benchmark runs Sift's processes (compiled, no TypeScript compiler in the heap).
// Protocol on stdio (bench/crawl/peer-process.ts): one warm-up crawl, then "ready"; each line read from stdin starts
// one measured crawl (of the URL on the line, else of argv[2]), answered by one JSON line {pages, pagesWithContent,
// failed, seconds}; stdin closed ends it.
import { createInterface } from 'node:readline';
import { Configuration, PlaywrightCrawler, type EnqueueLinksOptions } from '@crawlee/playwright';
import { chromium } from 'playwright';
import { extractHtml } from '@sift/content-extraction';

const CHROMIUM_ARGUMENTS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  // Chromium resolves no host name, so nothing it does reaches past loopback (Sift's browser has the same rule).
  '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1',
];

// As long as Sift's whole crawl may take (the row's timeout): on a loaded machine a large page takes Chromium more than
// Crawlee's default 60 s, and a retry would charge Crawlee for the machine's load, not for its own work.
const PAGE_TIMEOUT_SECONDS = 150;

interface CrawlSettings {
  concurrency: number;
  maxDepth: number;
  limit: number;
}

interface CrawlFigures {
  /** Pages rendered and extracted. */
  pages: number;
  /** Of those, pages whose extracted markdown is not empty. */
  pagesWithContent: number;
  /** Requests that failed after Crawlee's retries. */
  failed: number;
  seconds: number;
}

async function crawl(root: string, settings: CrawlSettings): Promise<CrawlFigures> {
  const figures = { pages: 0, pagesWithContent: 0, failed: 0 };
  const configuration = new Configuration({ persistStorage: false, purgeOnStart: true, logLevel: 0 });
  const crawler = new PlaywrightCrawler(
    {
      minConcurrency: settings.concurrency,
      maxConcurrency: settings.concurrency,
      maxRequestsPerCrawl: settings.limit,
      respectRobotsTxtFile: true,
      navigationTimeoutSecs: PAGE_TIMEOUT_SECONDS,
      requestHandlerTimeoutSecs: PAGE_TIMEOUT_SECONDS,
      headless: true,
      launchContext: {
        launcher: chromium,
        launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGUMENTS },
      },
      async requestHandler({ request, page, enqueueLinks }) {
        const depth = Number(request.userData.depth ?? 0);
        const extracted = extractHtml(await page.content(), { baseUrl: request.loadedUrl ?? request.url, format: 'markdown' });
        figures.pages += 1;
        if (extracted.markdown.trim() !== '') figures.pagesWithContent += 1;
        if (depth >= settings.maxDepth) return;
        const options: EnqueueLinksOptions = {
          strategy: 'same-hostname',
          transformRequestFunction: (next) => ({ ...next, userData: { depth: depth + 1 } }),
        };
        await enqueueLinks(options);
      },
      failedRequestHandler() {
        figures.failed += 1;
      },
    },
    configuration,
  );
  const startedAt = performance.now();
  await crawler.run([{ url: root, userData: { depth: 0 } }]);
  return { ...figures, seconds: (performance.now() - startedAt) / 1000 };
}

async function main(): Promise<void> {
  const [root, concurrency, maxDepth, limit] = process.argv.slice(2);
  if (!root || !limit) throw new Error('usage: crawlee-playwright-crawl <root url> <concurrency> <max depth> <limit>');
  const settings = { concurrency: Number(concurrency), maxDepth: Number(maxDepth), limit: Number(limit) };
  // So it pays for module loading and JIT in no measured crawl.
  await crawl(root, settings);
  process.stdout.write('ready\n');
  for await (const line of createInterface({ input: process.stdin })) {
    process.stdout.write(`${JSON.stringify(await crawl(line.trim() || root, settings))}\n`);
  }
}

if (require.main === module) {
  void main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
