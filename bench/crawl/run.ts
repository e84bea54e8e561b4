// Crawl benchmark, end to end: POST /crawl to a gateway process whose crawler worker (its own process) crawls the
// Git documentation site served on loopback, against Crawlee's CheerioCrawler fetching the same pages with the
// same concurrency and the same extraction function in this process; then POST /map of the same site.
// Sift is measured twice: with its default extraction threads (one per usable CPU) and with CRAWL_EXTRACTION_THREADS=1,
// so the figure of its architecture and the figure on one extraction core are both on record.
// Run: node scripts/run-ts.js bench/crawl/run.ts
// With CRAWL_BENCH_CPU_PROFILE_DIR=<dir> the crawler worker writes a V8 CPU profile (.cpuprofile) there when it stops.
import { CheerioCrawler, Configuration, type EnqueueLinksOptions } from '@crawlee/cheerio';
import { usableCpuCount } from '@sift/config';
import { extractHtml } from '@sift/content-extraction';
import { startGitDocsSite } from '@sift/testing';
import { createBenchKey, startGateway, type GatewayProcess } from '../search-quality/search-stack';
import { cpuMs, databaseBackendPids } from '../search-latency/proc-cpu';
import { benchStackEnv, type BenchWorker, forgetStoredPages, migrateBenchDatabase, postJson, startBenchWorker } from './bench-stack';

const DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/sift_bench_crawl';
// The crawl engine fetches at most 4 pages of one host at once (its per-host politeness limit); Crawlee gets the same.
const CONCURRENCY = 4;
const MAX_DEPTH = 2;
const MAX_BREADTH = 500;
const LIMIT = 500;
const TIMEOUT_SECONDS = 150;

interface RunFigures {
  pages: number;
  seconds: number;
}

/** CPU seconds each process spent during one run: where a crawl's machine time goes, beside its wall time. */
interface CpuSplit {
  gateway: number;
  worker: number;
  postgres: number;
  /** This process: the loopback site's server, and for Crawlee the whole crawl. */
  bench: number;
}

async function withCpuSplit<T>(processes: { gateway?: GatewayProcess; worker?: BenchWorker }, run: () => Promise<T>): Promise<[T, CpuSplit]> {
  const database = new URL(DATABASE_URL).pathname.slice(1);
  const read = (): CpuSplit & { backends: Map<number, number> } => {
    const backends = new Map(databaseBackendPids(database).map((pid) => [pid, cpuMs(pid)]));
    const usage = process.cpuUsage();
    return {
      gateway: processes.gateway ? cpuMs(processes.gateway.pid) : 0,
      worker: processes.worker ? cpuMs(processes.worker.pid) : 0,
      postgres: [...backends.values()].reduce((sum, ms) => sum + ms, 0),
      bench: (usage.user + usage.system) / 1000,
      backends,
    };
  };
  const before = read();
  const result = await run();
  const after = read();
  // A backend that ended during the run took its CPU with it; one that started counts from zero.
  const postgres = [...after.backends].reduce((sum, [pid, ms]) => sum + ms - (before.backends.get(pid) ?? 0), 0);
  const seconds = (from: number, to: number): number => (to - from) / 1000;
  return [
    result,
    { gateway: seconds(before.gateway, after.gateway), worker: seconds(before.worker, after.worker), postgres: postgres / 1000, bench: seconds(before.bench, after.bench) },
  ];
}

function cpuLine(label: string, pages: number, split: CpuSplit): string {
  const total = split.gateway + split.worker + split.postgres + split.bench;
  const perPage = (value: number): string => `${((value / pages) * 1000).toFixed(1)}`;
  return `${label.padEnd(38)} CPU ms/page: total ${perPage(total)} = gateway ${perPage(split.gateway)} + worker ${perPage(split.worker)} + postgres ${perPage(split.postgres)} + bench process ${perPage(split.bench)}`;
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
        extractHtml(body.toString(), { baseUrl: request.loadedUrl ?? request.url, format: 'markdown' });
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

async function main(): Promise<void> {
  const env = benchStackEnv(DATABASE_URL, 'crawl', { CRAWLER_PORT: '0', RATE_LIMIT_CRAWL_PER_MINUTE: '100000' });
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
    // One warm-up of each so neither pays for module loading or JIT in the measured run.
    await runSift(gateway, apiKey, root);
    await runCrawlee(root);
    // Every measured Sift crawl but the last stores every page for the first time, as a first crawl does; the last
    // crawls again pages stored unchanged, which are only refreshed.
    await forgetStoredPages(DATABASE_URL, site.origin);
    const [sift, siftCpu] = await withCpuSplit({ gateway, worker }, () => runSift(gateway, apiKey, root));
    const siftThreads = Number(worker.started.extractionThreads);
    const [crawlee, crawleeCpu] = await withCpuSplit({}, () => runCrawlee(root));
    const map = await runMap(gateway, apiKey, root);
    // The same stack with one extraction thread: a worker on the same queue, started after the first one stopped.
    await worker.stop();
    worker = await startBenchWorker('crawler-worker', { ...env, CRAWL_EXTRACTION_THREADS: '1' }, profileDir);
    await runSift(gateway, apiKey, root);
    await forgetStoredPages(DATABASE_URL, site.origin);
    const [siftOneThread, siftOneThreadCpu] = await withCpuSplit({ gateway, worker }, () => runSift(gateway, apiKey, root));
    const [siftRecrawl, siftRecrawlCpu] = await withCpuSplit({ gateway, worker }, () => runSift(gateway, apiKey, root));
    const rate = (figures: RunFigures): number => figures.pages / figures.seconds;
    const line = (label: string, figures: RunFigures): string =>
      `${label.padEnd(38)} ${figures.pages} pages in ${figures.seconds.toFixed(2)} s = ${rate(figures).toFixed(1)} pages/s`;
    console.log(
      `fetch concurrency ${CONCURRENCY}, depth ${MAX_DEPTH}, breadth ${MAX_BREADTH}, robots.txt obeyed, markdown via @sift/content-extraction, ${usableCpuCount()} usable CPUs`,
    );
    console.log(line(`sift POST /crawl (${siftThreads} extraction threads)`, sift));
    console.log(line('sift POST /crawl (1 extraction thread)', siftOneThread));
    console.log(line('sift, 1 thread, pages stored unchanged', siftRecrawl));
    console.log(line('crawlee CheerioCrawler', crawlee));
    console.log(`ratio sift/crawlee ${(rate(sift) / rate(crawlee)).toFixed(2)} (1 extraction thread: ${(rate(siftOneThread) / rate(crawlee)).toFixed(2)}; crawling again unchanged pages, 1 thread: ${(rate(siftRecrawl) / rate(crawlee)).toFixed(2)})`);
    console.log(`POST /map ${map.pages} URLs in ${(map.seconds * 1000).toFixed(0)} ms`);
    console.log(cpuLine(`sift (${siftThreads} extraction threads)`, sift.pages, siftCpu));
    console.log(cpuLine('sift (1 extraction thread)', siftOneThread.pages, siftOneThreadCpu));
    console.log(cpuLine('sift (1 thread, pages unchanged)', siftRecrawl.pages, siftRecrawlCpu));
    console.log(cpuLine('crawlee CheerioCrawler', crawlee.pages, crawleeCpu));
  } finally {
    await Promise.allSettled(started.map((stop) => stop()));
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
