// The crawl benchmark's peer, in a process of its own: Crawlee's CheerioCrawler crawls the site at argv[2] with the
// benchmark's concurrency, depth and page limit (argv[3], [4], [5]), running Sift's extraction function on every page
// (bench/crawl/run.ts).
// It is compiled and run the way the benchmark runs Sift's processes (compiled, no TypeScript compiler in the heap).
// Protocol on stdio: one warm-up crawl, then "ready"; each line read from stdin starts one measured crawl (of the URL on
// the line, else of argv[2]), answered by one JSON line {pages, seconds}; stdin closed ends the process.
import { createInterface } from 'node:readline';
import { CheerioCrawler, Configuration, type EnqueueLinksOptions } from '@crawlee/cheerio';
import { extractHtml } from '@sift/content-extraction';

interface CrawlSettings {
  concurrency: number;
  maxDepth: number;
  limit: number;
}

async function crawl(root: string, settings: CrawlSettings): Promise<{ pages: number; seconds: number }> {
  let pages = 0;
  const configuration = new Configuration({ persistStorage: false, purgeOnStart: true, logLevel: 0 });
  const crawler = new CheerioCrawler(
    {
      minConcurrency: settings.concurrency,
      maxConcurrency: settings.concurrency,
      // The concurrency from the first request: HttpCrawler's own default starts its pool at 10, and the pool moves
      // only every 10 s (a crawl here takes a few), so a ceiling above 10 would never be reached.
      autoscaledPoolOptions: { desiredConcurrency: settings.concurrency },
      maxRequestsPerCrawl: settings.limit,
      respectRobotsTxtFile: true,
      async requestHandler({ request, body, enqueueLinks }) {
        const depth = Number(request.userData.depth ?? 0);
        extractHtml(body.toString(), { baseUrl: request.loadedUrl ?? request.url, format: 'markdown' });
        pages += 1;
        if (depth >= settings.maxDepth) return;
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

async function main(): Promise<void> {
  const [root, concurrency, maxDepth, limit] = process.argv.slice(2);
  if (!root || !limit) throw new Error('usage: crawlee-crawl <root url> <concurrency> <max depth> <limit>');
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
