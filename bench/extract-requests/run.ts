// Extract-request benchmark, end to end: POST /extract with 1, 5, 10 and 20 URLs of the Git documentation site
// (served on loopback) in one request, to a gateway process and an extractor worker process as `npm start` runs
// them; against the time of the slowest of those pages requested alone, measured in the same rounds. A request of
// N pages can only be as fast as its slowest page, and on C cores no faster than N pages' CPU time / C: the ratio
// says how close the worker's job concurrency and parsing threads come to that. Measured twice: with every page
// stored for the first time (its stored copy removed before each request, outside the request's time), and with
// every page stored before unchanged (then only refreshed, not indexed again).
// Run: node scripts/run-ts.js bench/extract-requests/run.ts (EXTRACT_BENCH_DEPTH=advanced: every page rendered)
// With EXTRACT_BENCH_CPU_PROFILE_DIR=<dir> the extractor worker and the gateway write V8 CPU profiles (.cpuprofile) there
// when they stop.
// Beside the times it prints the CPU each request size cost per page in every process that serves it (gateway,
// extractor worker with its parsing threads, the Postgres backends of the benchmark's database, Redis), read from
// /proc around each measured request. Redis is shared with whatever else runs on the machine. Linux only.
import { readdirSync } from 'node:fs';
import { usableCpuCount } from '@sift/config';
import { GIT_DOCS_SITE_ROOT, startGitDocsSite } from '@sift/testing';
import { benchStackEnv, dropBenchQueues, forgetStoredPages, migrateBenchDatabase, postJson, startBenchWorker, storesSettled } from '../crawl/bench-stack';
import { createBenchKey, type GatewayProcess, startGateway } from '../search-quality/search-stack';
import { cpuMs, databaseBackendPids, pidsMatching } from '../search-latency/proc-cpu';

const DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/sift_bench_extract_requests';
const REQUEST_SIZES = [1, 5, 10, 20];
/** Measured rounds; each round requests every page alone, then one request of each size. */
const ROUNDS = Number(process.env.EXTRACT_BENCH_ROUNDS ?? 10);
const TIMEOUT_SECONDS = 30;
/** EXTRACT_BENCH_DEPTH=advanced renders every page in the browser (then 3 or so rounds are enough); basic by default. */
const EXTRACT_DEPTH = process.env.EXTRACT_BENCH_DEPTH === 'advanced' ? 'advanced' : 'basic';

interface ExtractResponse {
  results: Array<{ url: string; raw_content: string }>;
  failed_results: Array<{ url: string; error: string }>;
}

/**
 * 20 pages spread over the site's alphabet (small, medium and large pages alike), in a fixed order; the request of
 * N URLs takes the first N.
 */
function benchPages(): string[] {
  const pages = readdirSync(GIT_DOCS_SITE_ROOT)
    .filter((name) => name.endsWith('.html') && name !== 'index.html')
    .sort();
  const count = Math.max(...REQUEST_SIZES);
  const step = pages.length / count;
  return Array.from({ length: count }, (_, index) => `/${pages[Math.floor(index * step)]}`);
}

/** The request's time; it resolves once its pages are stored too (after the answer: storesSettled), outside that time. */
async function timedExtract(gateway: GatewayProcess, apiKey: string, workerMetricsUrl: string, urls: string[]): Promise<number> {
  const startedAt = performance.now();
  const body = await postJson<ExtractResponse>(gateway, apiKey, '/extract', { urls, format: 'markdown', extract_depth: EXTRACT_DEPTH, timeout: TIMEOUT_SECONDS });
  const elapsedMs = performance.now() - startedAt;
  if (body.failed_results.length > 0 || body.results.length !== urls.length) {
    throw new Error(`POST /extract of ${urls.length} URLs answered ${body.results.length} results; failed: ${JSON.stringify(body.failed_results).slice(0, 500)}`);
  }
  await storesSettled(workerMetricsUrl);
  return elapsedMs;
}

const DATABASE_NAME = new URL(DATABASE_URL).pathname.slice(1);
const PROCESS_KINDS = ['gateway', 'worker', 'postgres', 'redis'] as const;
/** The extractor worker's CPU split: its main thread (event loop) and all its other threads (parsing, GC helpers, libuv). */
const WORKER_PARTS = ['workerMain', 'workerThreads'] as const;
type ProcessKind = (typeof PROCESS_KINDS)[number];
type CpuKind = ProcessKind | (typeof WORKER_PARTS)[number];
type CpuByKind = Record<CpuKind, number>;
/** CPU ms used so far by each process (or thread) of each kind, by its id. */
type CpuSnapshot = Record<CpuKind, Map<number, number>>;

/** Postgres backends are found again each time: pools open and close connections. */
function cpuSnapshot(gatewayPid: number, workerPid: number): CpuSnapshot {
  const byPid = (pids: number[]) => new Map(pids.map((pid) => [pid, cpuMs(pid)]));
  const worker = cpuMs(workerPid);
  const workerMain = cpuMs(workerPid, workerPid);
  return {
    gateway: byPid([gatewayPid]),
    worker: new Map([[workerPid, worker]]),
    workerMain: new Map([[workerPid, workerMain]]),
    workerThreads: new Map([[workerPid, worker - workerMain]]),
    postgres: byPid(databaseBackendPids(DATABASE_NAME)),
    redis: byPid(pidsMatching('redis-server')),
  };
}

/**
 * CPU ms each kind used between two snapshots: a process that started in between counts from zero, one that ended
 * in between (a closed connection's backend) drops out instead of taking its whole past with it.
 */
function cpuBetween(before: CpuSnapshot, after: CpuSnapshot, kind: CpuKind): number {
  let spent = 0;
  for (const [pid, ms] of after[kind]) spent += ms - (before[kind].get(pid) ?? 0);
  return spent;
}

function percentile(values: number[], fraction: number): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)];
}

interface Measurement {
  gateway: GatewayProcess;
  apiKey: string;
  workerPid: number;
  /** The extractor worker's GET /metrics. */
  workerMetricsUrl: string;
  origin: string;
  pages: string[];
  /** Remove the stored pages before each request (outside its time), so each one stores its pages first-time. */
  forget: boolean;
}

async function measure({ gateway, apiKey, workerPid, workerMetricsUrl, origin, pages, forget }: Measurement): Promise<void> {
  const single = new Map<string, number[]>(pages.map((url) => [url, []]));
  const bySize = new Map<number, number[]>(REQUEST_SIZES.map((size) => [size, []]));
  const cpuBySize = new Map<number, CpuByKind>(REQUEST_SIZES.map((size) => [size, { gateway: 0, worker: 0, workerMain: 0, workerThreads: 0, postgres: 0, redis: 0 }]));
  const extract = async (urls: string[]): Promise<number> => {
    if (forget) await forgetStoredPages(DATABASE_URL, origin);
    return timedExtract(gateway, apiKey, workerMetricsUrl, urls);
  };
  // One warm-up round so no measurement pays for module loading or JIT.
  for (let round = 0; round <= ROUNDS; round += 1) {
    const measured = round > 0;
    for (const url of pages) {
      const elapsedMs = await extract([url]);
      if (measured) single.get(url)?.push(elapsedMs);
    }
    for (const size of REQUEST_SIZES) {
      if (forget) await forgetStoredPages(DATABASE_URL, origin);
      const before = cpuSnapshot(gateway.pid, workerPid);
      const elapsedMs = await timedExtract(gateway, apiKey, workerMetricsUrl, pages.slice(0, size));
      const after = cpuSnapshot(gateway.pid, workerPid);
      if (!measured) continue;
      bySize.get(size)?.push(elapsedMs);
      const spent = cpuBySize.get(size);
      for (const kind of [...PROCESS_KINDS, ...WORKER_PARTS]) if (spent) spent[kind] += cpuBetween(before, after, kind);
    }
  }

  const slowestSingleMs = (size: number): { url: string; p50: number } =>
    pages
      .slice(0, size)
      .map((url) => ({ url, p50: percentile(single.get(url) ?? [], 0.5) }))
      .reduce((slowest, page) => (page.p50 > slowest.p50 ? page : slowest));
  console.log('URLs  p50 ms  p99 ms  pages/s  slowest single page p50 ms  ratio (p50 / slowest single)');
  for (const size of REQUEST_SIZES) {
    const times = bySize.get(size) ?? [];
    const p50 = percentile(times, 0.5);
    const slowest = slowestSingleMs(size);
    const pagesPerSecond = (size * times.length) / (times.reduce((sum, ms) => sum + ms, 0) / 1000);
    console.log(
      `${String(size).padStart(4)}  ${p50.toFixed(0).padStart(6)}  ${percentile(times, 0.99).toFixed(0).padStart(6)}  ${pagesPerSecond.toFixed(1).padStart(7)}  ${slowest.p50.toFixed(0).padStart(26)}  ${(p50 / slowest.p50).toFixed(2)} (${slowest.url.slice(origin.length)})`,
    );
  }
  console.log('CPU ms per page by process (the requests of each size; /proc ticks of 10 ms, so small sizes are coarse)');
  console.log(`URLs  ${PROCESS_KINDS.map((kind) => kind.padStart(8)).join('  ')}     total  (worker: main thread / other threads)`);
  for (const size of REQUEST_SIZES) {
    const spent = cpuBySize.get(size);
    if (!spent) continue;
    const perPage = (ms: number) => ms / (size * ROUNDS);
    const total = PROCESS_KINDS.reduce((sum, kind) => sum + spent[kind], 0);
    console.log(
      `${String(size).padStart(4)}  ${PROCESS_KINDS.map((kind) => perPage(spent[kind]).toFixed(1).padStart(8)).join('  ')}  ${perPage(total).toFixed(1).padStart(8)}  (${perPage(spent.workerMain).toFixed(1)} / ${perPage(spent.workerThreads).toFixed(1)})`,
    );
  }
  console.log(`ratio 10 URLs / slowest single page ${(percentile(bySize.get(10) ?? [], 0.5) / slowestSingleMs(10).p50).toFixed(2)} (target ≤ 2)`);
}

async function main(): Promise<void> {
  // Every request fetches and parses: a page extracted in an earlier round must not come from the document store.
  const env = benchStackEnv(DATABASE_URL, 'extract', { EXTRACTOR_PORT: '0', DOCUMENT_CACHE_SECONDS: '0' });
  await migrateBenchDatabase(DATABASE_URL);
  // Everything started is stopped at the end, also when a later start fails (no process outlives the benchmark).
  const started: (() => Promise<unknown>)[] = [];
  try {
    const site = await startGitDocsSite();
    started.push(() => site.close());
    const profileDir = process.env.EXTRACT_BENCH_CPU_PROFILE_DIR;
    const worker = await startBenchWorker('extractor-worker', env, profileDir);
    started.push(() => worker.stop());
    const gateway = await startGateway(DATABASE_URL, env, undefined, profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []);
    started.push(() => gateway.stop());
    const apiKey = await createBenchKey(DATABASE_URL);
    const pages = benchPages().map((path) => `${site.origin}${path}`);
    const workerMetricsUrl = `http://127.0.0.1:${String(worker.started.port)}/metrics`;
    const header = `${ROUNDS} rounds, ${EXTRACT_DEPTH} depth, markdown, no cache, ${usableCpuCount()} usable CPUs, extractor: ${String(worker.started.concurrency)} jobs at once, ${String(worker.started.parseThreads)} parsing threads`;
    // First as on a fresh install (every page of every request stored for the first time), then as when the same
    // pages are extracted again unchanged (a stored page is then only refreshed: PageRepository.save).
    console.log(header);
    await measure({ gateway, apiKey, workerPid: worker.pid, workerMetricsUrl, origin: site.origin, pages, forget: true });
    console.log('\nThe same, every page already stored unchanged (refreshed, not indexed again)');
    await measure({ gateway, apiKey, workerPid: worker.pid, workerMetricsUrl, origin: site.origin, pages, forget: false });
  } finally {
    await Promise.allSettled(started.map((stop) => stop()));
    await dropBenchQueues(env).catch((error: unknown) => console.error('could not drop the benchmark\'s queues', error));
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
