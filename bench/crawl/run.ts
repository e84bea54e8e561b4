// Crawl benchmark, end to end: POST /crawl to a gateway process whose crawler worker (its own process) crawls the
// Git documentation site served on loopback, against Crawlee's CheerioCrawler fetching the same pages with the
// same concurrency and the same extraction function in a process of its own (crawlee-crawl.ts); then POST /map of
// the same site. Every process runs compiled, as `npm start` runs Sift (entryRunner).
// Sift is measured twice: with its default extraction threads (one per usable CPU) and with CRAWL_EXTRACTION_THREADS=1,
// so the figure of its architecture and the figure on one extraction core are both on record.
// Run: node scripts/run-ts.js bench/crawl/run.ts
// With CRAWL_BENCH_CPU_PROFILE_DIR=<dir> the crawler worker writes a V8 CPU profile (.cpuprofile) there when it stops.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { usableCpuCount } from '@sift/config';
import { startGitDocsSite } from '@sift/testing';
import { compiledBenchEntry, createBenchKey, repositoryRoot, startGateway, stopChild, type GatewayProcess } from '../search-quality/search-stack';
import { cpuMs, databaseBackendPids } from '../search-latency/proc-cpu';
import { benchStackEnv, dropBenchQueues, forgetStoredPages, migrateBenchDatabase, postJson, startBenchWorker } from './bench-stack';

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
  /** The crawler process: Sift's crawler worker, or the Crawlee process. */
  worker: number;
  postgres: number;
  /** This process: the loopback site's server. */
  bench: number;
}

async function withCpuSplit<T>(processes: { gateway?: GatewayProcess; worker?: { pid: number } }, run: () => Promise<T>): Promise<[T, CpuSplit]> {
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

function cpuLine(label: string, pages: number, split: CpuSplit, workerLabel = 'worker'): string {
  const total = split.gateway + split.worker + split.postgres + split.bench;
  const perPage = (value: number): string => `${((value / pages) * 1000).toFixed(1)}`;
  return `${label.padEnd(38)} CPU ms/page: total ${perPage(total)} = gateway ${perPage(split.gateway)} + ${workerLabel} ${perPage(split.worker)} + postgres ${perPage(split.postgres)} + bench process ${perPage(split.bench)}`;
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

interface CrawleeProcess {
  pid: number;
  /** One measured crawl of the site. */
  run(): Promise<RunFigures>;
  stop(): Promise<void>;
}

/**
 * Crawlee in a child process (bench/crawl/crawlee-crawl.ts), compiled as Sift's processes are (entryRunner), so
 * neither side's heap holds the TypeScript compiler nor the other side's objects; resolves after its warm-up crawl.
 */
async function startCrawlee(root: string): Promise<CrawleeProcess> {
  const compiled = compiledBenchEntry(join(__dirname, 'crawlee-crawl.ts'));
  const child = spawn(process.execPath, [compiled, root, String(CONCURRENCY), String(MAX_DEPTH), String(LIMIT)], {
    cwd: repositoryRoot,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout });
  const pending: ((line: string) => void)[] = [];
  // Crawlee may log to stdout too: only the protocol's lines answer.
  lines.on('line', (line) => {
    if (line === 'ready' || line.startsWith('{"pages"')) pending.shift()?.(line);
  });
  const nextLine = (): Promise<string> =>
    new Promise((resolveLine, reject) => {
      pending.push(resolveLine);
      child.once('exit', (code) => reject(new Error(`the Crawlee process exited (${code})`)));
    });
  const ready = await nextLine();
  if (ready !== 'ready') throw new Error(`the Crawlee process said ${ready}`);
  return {
    pid: child.pid ?? 0,
    run: async () => {
      child.stdin.write('crawl\n');
      return JSON.parse(await nextLine()) as RunFigures;
    },
    stop: async () => {
      child.stdin.end();
      await stopChild(child);
    },
  };
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
    // One warm-up of each so neither pays for module loading or JIT in the measured run. Sift's is a first crawl (no
    // page stored before), or its extraction threads would only read the links of the pages it stored in an earlier
    // run and stay cold.
    await forgetStoredPages(DATABASE_URL, site.origin);
    await runSift(gateway, apiKey, root);
    const crawlee = await startCrawlee(root);
    started.push(() => crawlee.stop());
    // Every measured Sift crawl but the last stores every page for the first time, as a first crawl does; the last
    // crawls again pages stored unchanged, which are only refreshed.
    await forgetStoredPages(DATABASE_URL, site.origin);
    const [sift, siftCpu] = await withCpuSplit({ gateway, worker }, () => runSift(gateway, apiKey, root));
    const siftThreads = Number(worker.started.extractionThreads);
    const [crawleeRun, crawleeCpu] = await withCpuSplit({ worker: crawlee }, () => crawlee.run());
    const map = await runMap(gateway, apiKey, root);
    // The same stack with one extraction thread: a worker on the same queue, started after the first one stopped.
    await worker.stop();
    worker = await startBenchWorker('crawler-worker', { ...env, CRAWL_EXTRACTION_THREADS: '1' }, profileDir);
    await forgetStoredPages(DATABASE_URL, site.origin);
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
