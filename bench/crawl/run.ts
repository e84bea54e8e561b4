// Crawl benchmark, end to end: POST /crawl to a gateway process whose crawler worker (its own process) crawls the
// Git documentation site served on loopback, against Crawlee's CheerioCrawler fetching the same pages with the
// same concurrency and the same extraction function in a process of its own (crawlee-crawl.ts); then POST /map of
// the same site. Every process runs compiled, as `npm start` runs Sift (entryRunner).
// Sift is measured twice: with its default extraction threads (one per usable CPU) and with CRAWL_EXTRACTION_THREADS=1,
// so the figure of its architecture and the figure on one extraction core are both on record.
// Run: node scripts/run-ts.js bench/crawl/run.ts
// With CRAWL_BENCH_CPU_PROFILE_DIR=<dir> the crawler worker writes a V8 CPU profile (.cpuprofile) there when it stops.
// The same benchmark on a client-rendered site, against Crawlee's PlaywrightCrawler: bench/crawl/js-site.ts.
import { join } from 'node:path';
import { usableCpuCount } from '@sift/config';
import { startGitDocsSite } from '@sift/testing';
import { createBenchKey, startGateway, type GatewayProcess } from '../search-quality/search-stack';
import { benchStackEnv, dropBenchQueues, forgetStoredPages, migrateBenchDatabase, postJson, startBenchWorker } from './bench-stack';
import { cpuLine, withCpuSplit } from './crawl-cpu';
import { startPeerProcess } from './peer-process';

const DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/sift_bench_crawl';
// Pages of one host fetched at once, by both: Sift's per-host limit is held there (CRAWL_HOST_*_CONCURRENCY below).
const CONCURRENCY = 4;
const MAX_DEPTH = 2;
const MAX_BREADTH = 500;
const LIMIT = 500;
const TIMEOUT_SECONDS = 150;

interface RunFigures {
  pages: number;
  seconds: number;
}

async function runSift(gateway: GatewayProcess, apiKey: string, root: string): Promise<RunFigures> {
  const startedAt = performance.now();
  const body = await postJson<{ results: unknown[] }>(gateway, apiKey, '/crawl', {
    url: root,
    max_depth: MAX_DEPTH,
    max_breadth: MAX_BREADTH,
    limit: LIMIT,
    format: 'markdown',
    allow_external: false,
    timeout: TIMEOUT_SECONDS,
  });
  return { pages: body.results.length, seconds: (performance.now() - startedAt) / 1000 };
}

async function runMap(gateway: GatewayProcess, apiKey: string, root: string): Promise<RunFigures> {
  const startedAt = performance.now();
  const body = await postJson<{ results: string[] }>(gateway, apiKey, '/map', {
    url: root,
    max_depth: 1,
    max_breadth: MAX_BREADTH,
    limit: LIMIT,
    allow_external: false,
    timeout: TIMEOUT_SECONDS,
  });
  return { pages: body.results.length, seconds: (performance.now() - startedAt) / 1000 };
}

async function main(): Promise<void> {
  // The same fetch concurrency on both sides: Sift's per-host limit follows the host (up to 16 on a fast one), which
  // would compare a different crawl; held at Crawlee's 4 here, the figure is the cost of the same work.
  const env = benchStackEnv(DATABASE_URL, 'crawl', {
    CRAWLER_PORT: '0',
    RATE_LIMIT_CRAWL_PER_MINUTE: '100000',
    CRAWL_HOST_START_CONCURRENCY: String(CONCURRENCY),
    CRAWL_HOST_MAX_CONCURRENCY: String(CONCURRENCY),
  });
  await migrateBenchDatabase(DATABASE_URL);
  // Everything started is stopped at the end, also when a later start fails (no process outlives the benchmark).
  const started: (() => Promise<unknown>)[] = [];
  try {
    const site = await startGitDocsSite();
    started.push(() => site.close());
    const profileDir = process.env.CRAWL_BENCH_CPU_PROFILE_DIR;
    let worker = await startBenchWorker('crawler-worker', env, profileDir);
    started.push(() => worker.stop());
    const gateway = await startGateway(DATABASE_URL, env);
    started.push(() => gateway.stop());
    const root = `${site.origin}/index.html`;
    const apiKey = await createBenchKey(DATABASE_URL);
    // One warm-up of each so neither pays for module loading or JIT in the measured run. Sift's is a first crawl (no
    // page stored before), or its extraction threads would only read the links of the pages it stored in an earlier
    // run and stay cold.
    await forgetStoredPages(DATABASE_URL, site.origin);
    await runSift(gateway, apiKey, root);
    // Crawlee in a process of its own (crawlee-crawl.ts); resolves after its warm-up crawl.
    const crawlee = await startPeerProcess<RunFigures>(join(__dirname, 'crawlee-crawl.ts'), [root, String(CONCURRENCY), String(MAX_DEPTH), String(LIMIT)], 'Crawlee');
    started.push(() => crawlee.stop());
    // Every measured Sift crawl but the last stores every page for the first time, as a first crawl does; the last
    // crawls again pages stored unchanged, which are only refreshed.
    await forgetStoredPages(DATABASE_URL, site.origin);
    const [sift, siftCpu] = await withCpuSplit(DATABASE_URL, { gateway, worker }, () => runSift(gateway, apiKey, root));
    const siftThreads = Number(worker.started.extractionThreads);
    const [crawleeRun, crawleeCpu] = await withCpuSplit(DATABASE_URL, { worker: crawlee }, () => crawlee.run());
    const map = await runMap(gateway, apiKey, root);
    // The same stack with one extraction thread: a worker on the same queue, started after the first one stopped.
    await worker.stop();
    worker = await startBenchWorker('crawler-worker', { ...env, CRAWL_EXTRACTION_THREADS: '1' }, profileDir);
    await forgetStoredPages(DATABASE_URL, site.origin);
    await runSift(gateway, apiKey, root);
    await forgetStoredPages(DATABASE_URL, site.origin);
    const [siftOneThread, siftOneThreadCpu] = await withCpuSplit(DATABASE_URL, { gateway, worker }, () => runSift(gateway, apiKey, root));
    const [siftRecrawl, siftRecrawlCpu] = await withCpuSplit(DATABASE_URL, { gateway, worker }, () => runSift(gateway, apiKey, root));
    const rate = (figures: RunFigures): number => figures.pages / figures.seconds;
    const line = (label: string, figures: RunFigures): string =>
      `${label.padEnd(38)} ${figures.pages} pages in ${figures.seconds.toFixed(2)} s = ${rate(figures).toFixed(1)} pages/s`;
    console.log(
      `fetch concurrency ${CONCURRENCY}, depth ${MAX_DEPTH}, breadth ${MAX_BREADTH}, robots.txt obeyed, markdown via @sift/content-extraction, ${usableCpuCount()} usable CPUs`,
    );
    console.log(line(`sift POST /crawl (${siftThreads} extraction threads)`, sift));
    console.log(line('sift POST /crawl (1 extraction thread)', siftOneThread));
    console.log(line('sift, 1 thread, pages stored unchanged', siftRecrawl));
    console.log(line('crawlee CheerioCrawler', crawleeRun));
    console.log(`ratio sift/crawlee ${(rate(sift) / rate(crawleeRun)).toFixed(2)} (1 extraction thread: ${(rate(siftOneThread) / rate(crawleeRun)).toFixed(2)}; crawling again unchanged pages, 1 thread: ${(rate(siftRecrawl) / rate(crawleeRun)).toFixed(2)})`);
    console.log(`POST /map ${map.pages} URLs in ${(map.seconds * 1000).toFixed(0)} ms`);
    console.log(cpuLine(`sift (${siftThreads} extraction threads)`, sift.pages, siftCpu));
    console.log(cpuLine('sift (1 extraction thread)', siftOneThread.pages, siftOneThreadCpu));
    console.log(cpuLine('sift (1 thread, pages unchanged)', siftRecrawl.pages, siftRecrawlCpu));
    console.log(cpuLine('crawlee CheerioCrawler', crawleeRun.pages, crawleeCpu, 'crawlee process'));
  } finally {
    await Promise.allSettled(started.map((stop) => stop()));
    await dropBenchQueues(env).catch((error: unknown) => console.error('could not drop the benchmark\'s queues', error));
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
