// Simulated-web benchmark: Sift against pages that answer as the web does (issue #37). The Git documentation site is
// served on four loopback hosts with the latency profile of profile.json (80 % of pages 150–600 ms, 15 %
// 1–2.5 s, 5 % 4–8 s, 2 % never answering, one host answering 429 above 3 requests/s), a SearXNG stand-in answers
// each query in 300–700 ms with the ten pages that match it best, and the gateway, an extractor worker and a crawler
// worker run as `npm start` runs them, against a fresh database. Three parts, each printed with its floor or ideal and
// the issue's target beside it:
//   search   p50/p95/p99 of POST /search per depth, one client, the upstream's own time beside each, and the share of
//            results that came with page content rather than the upstream's snippet;
//   extract  POST /extract of 10 URLs of known latency against the slowest of them, and once with a page that hangs;
//   crawl    POST /crawl of the site served at a fixed latency, timed to its answer's last byte (and, beside it, to
//            this process's parse of its JSON), against the host's best possible (the crawler's per-host concurrency
//            ceiling over the latency) and against Crawlee's CheerioCrawler crawling the same way, then a crawl during
//            which the host starts answering 429 and one during which it starts answering slowly.
// Nothing is cached between the measured requests: every request's URLs are unique (`?visit=<run>-<part>-<n>`, the
// page and its latency stay those of its path), and before each one the fetches of earlier ones are waited out and the
// pages they stored deleted (forgetPages).
// Run: node scripts/run-ts.js bench/simulated-web/run.ts
// Settings (environment):
//   SIM_PARTS                 search,extract,crawl (any of them, comma-separated)
//   SIM_SEARCH_DEPTHS         ultra-fast,fast,basic,advanced
//   SIM_SEARCH_QUERIES        20: queries per depth (queries.json, taken in order, repeated past its end)
//   SIM_MAX_RESULTS           5
//   SIM_SEARCH_MAX_TOKENS     unset; a number: every search asks for `max_tokens` that many (its answer cut to that budget)
//   SIM_EXTRACT_REPETITIONS   5: requests of 10 URLs
//   SIM_EXTRACT_HANG_TIMEOUT  3: the `timeout` (s) of the request holding a page that never answers (0: skip it)
//   SIM_CRAWL_LATENCY_MS, SIM_CRAWL_429_AFTER_PAGES, SIM_CRAWL_429_RATE, SIM_CRAWL_SLOW_AFTER_PAGES, SIM_CRAWL_SLOW_MS:
//                             the crawl hosts (default: profile.json)
//   SIM_CRAWL_REPETITIONS     3: crawls of the steady host, each of a new host, and their median share
//   SIM_CRAWL_COLD            1: no warm-up crawl of another host first (the worker's first crawl is measured)
//   SIM_CRAWL_PEER            0: no peer crawls (by default each crawl of the steady host is followed by one of Crawlee's
//                             CheerioCrawler, bench/crawl/crawlee-crawl.ts, of a new host of its own)
//   CRAWL_HOST_MAX_CONCURRENCY  the crawler's per-host ceiling the host's best possible is computed from (default 16);
//                               passed on to the crawler worker like every other variable of the environment
//   SIM_ROOT                  another checkout whose gateway and workers to measure (a before/after figure): it needs
//                             node_modules (a link to this one's will do) and its own Prisma client
//                             (`node scripts/prisma-generate.js` in it), and runs compiled once `node scripts/build.js` ran in it
//   SIM_DATABASE_URL          postgresql://postgres@127.0.0.1:5432/sift_bench_simulated_web (dropped and created anew)
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { usableCpuCount } from '@sift/config';
import { createRedisConnection, JobQueue } from '@sift/queue';
import { QueueName } from '@sift/queue-contracts';
// eslint-disable-next-line @nx/enforce-module-boundaries -- the benchmarks share their stack helpers; bench projects are not libraries
import { benchStackEnv, type BenchWorker, dropBenchQueues, forgetStoredPages, postJson, postJsonTimed, startBenchWorker, storesSettled } from '../crawl/bench-stack';
// eslint-disable-next-line @nx/enforce-module-boundaries -- as above
import { type PeerProcess, startPeerProcess } from '../crawl/peer-process';
// eslint-disable-next-line @nx/enforce-module-boundaries -- as above
import { backendCpuSpentMs, cpuMs, databaseBackendCpuMs, machineMs, machineStealMs } from '../search-latency/proc-cpu';
// eslint-disable-next-line @nx/enforce-module-boundaries -- as above
import { createBenchKey, dropDatabase, type GatewayProcess, repositoryRoot, startGateway } from '../search-quality/search-stack';
import { type LatencyProfile, loadLatencyProfile, pageFate, pageHost, seededFraction, upstreamMs } from './latency-profile';
import { type SearxngStandIn, startSearxngStandIn } from './searxng-stand-in';
import { filePathOf, type SimulatedHost, startSimulatedHost } from './simulated-host';
import { shortestBreadthFirstCrawl } from './breadth-first-bound';

const DATABASE_URL = process.env.SIM_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/sift_bench_simulated_web';
/** SIM_CRAWL_COLD=1: measure the crawl on a worker that has not crawled yet (no warm-up crawl). */
const CRAWL_COLD = process.env.SIM_CRAWL_COLD === '1';
const CRAWL_MAX_DEPTH = 2;
/** SIM_CRAWL_REPETITIONS: crawls of the steady host (a new one each time), printed each and by their median. */
const CRAWL_REPETITIONS = Math.max(1, Number(process.env.SIM_CRAWL_REPETITIONS ?? 3));
/** SIM_CRAWL_PEER=0: Sift's crawls only, without Crawlee's beside them. */
const CRAWL_PEER = process.env.SIM_CRAWL_PEER !== '0';
const PARTS = new Set((process.env.SIM_PARTS ?? 'search,extract,crawl').split(',').map((part) => part.trim()));
const DEPTHS = (process.env.SIM_SEARCH_DEPTHS ?? 'ultra-fast,fast,basic,advanced').split(',').map((depth) => depth.trim());
const QUERY_COUNT = Number(process.env.SIM_SEARCH_QUERIES ?? 20);
const MAX_RESULTS = Number(process.env.SIM_MAX_RESULTS ?? 5);
const MAX_TOKENS = process.env.SIM_SEARCH_MAX_TOKENS ? Number(process.env.SIM_SEARCH_MAX_TOKENS) : undefined;
const EXTRACT_REPETITIONS = Number(process.env.SIM_EXTRACT_REPETITIONS ?? 5);
const EXTRACT_URLS = 10;
const EXTRACT_HANG_TIMEOUT_SECONDS = Number(process.env.SIM_EXTRACT_HANG_TIMEOUT ?? 3);
const HOST_CEILING = Number(process.env.CRAWL_HOST_MAX_CONCURRENCY ?? 16);
/** Pages the rate-limited crawl asks for past the point where the host starts limiting (its `limit` is the sum). */
const CRAWL_PAGES_AFTER_LIMIT = 80;
/** Pages the slowing host's crawl asks for past the point where the host slows down (its `limit` is the sum). */
const CRAWL_PAGES_AFTER_SLOWING = 60;
/** The longest the bench waits for the previous request's fetches to end before the next request. */
const SETTLE_LIMIT_MS = 30_000;
/** The issue's allowance over a floor (the upstream's time, the slowest page's). */
const ALLOWANCE_MS = 150;

/** The issue's target for each depth, checked against the measured times and the upstream's. */
const SEARCH_TARGETS: Record<string, { text: string; met(times: number[], overUpstream: number[]): boolean }> = {
  'ultra-fast': { text: `p95 ≤ upstream + ${ALLOWANCE_MS} ms`, met: (_times, over) => percentile(over, 0.95) <= ALLOWANCE_MS },
  fast: { text: `p95 ≤ upstream + ${ALLOWANCE_MS} ms`, met: (_times, over) => percentile(over, 0.95) <= ALLOWANCE_MS },
  basic: { text: 'p95 ≤ 1.5 s, p50 ≤ 1.0 s', met: (times) => percentile(times, 0.95) <= 1500 && percentile(times, 0.5) <= 1000 },
  advanced: { text: 'p95 ≤ 3 s', met: (times) => percentile(times, 0.95) <= 3000 },
};

/** Nearest-rank percentile (of 20 values, p95 is the 19th and p99 the largest). */
function percentile(values: number[], fraction: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))];
}

const ms = (value: number): string => (Number.isNaN(value) ? '–' : `${Math.round(value)}`);
const loadLine = (): string => loadavg().map((load) => load.toFixed(2)).join(' ');

interface Stack {
  gateway: GatewayProcess;
  apiKey: string;
  profile: LatencyProfile;
  hosts: SimulatedHost[];
  standIn: SearxngStandIn;
  /** The benchmark's view of the extract queue (its depth). */
  jobs: JobQueue;
  /** Distinguishes this run's URLs from any stored by an earlier run. */
  runId: string;
  /** The crawler worker's GET /metrics, when the crawl part runs. */
  crawlerMetricsUrl?: string;
  /** The crawler worker's process id (its parsing threads run inside it), when the crawl part runs. */
  crawlerPid?: number;
  /** The extractor worker's GET /metrics, when the search or extract part runs. */
  extractorMetricsUrl?: string;
}

/** The URL of a page on the host that serves it, unique to one visit. */
function visitUrl(stack: Stack, path: string, visit: string): string {
  return `${stack.hosts[pageHost(stack.profile, path)].origin}${path}?visit=${encodeURIComponent(visit)}`;
}

/**
 * Readies the next measured request: waits until no fetch of an earlier one can still store a page (every host has
 * answered all but the requests of pages that never answer, the extract queue holds no other job, and the extractor
 * has stored the pages of the jobs that answered first; a search may leave its slow fetches to finish in the
 * background, and the local index would find their pages for the next query), then deletes every page earlier
 * requests stored (any loopback port), so the next request fetches its own.
 */
async function forgetPages(stack: Stack): Promise<void> {
  const giveUpAt = Date.now() + SETTLE_LIMIT_MS;
  for (;;) {
    const [extract] = await stack.jobs.depths([QueueName.Extract]);
    const hanging = stack.hosts.reduce((sum, host) => sum + host.hung(), 0);
    const pending = stack.hosts.reduce((sum, host) => sum + host.pending(), 0);
    if (pending === 0 && extract.waiting === 0 && extract.delayed === 0 && extract.active <= hanging) break;
    if (Date.now() > giveUpAt) {
      console.log(`  (earlier fetches still running after ${SETTLE_LIMIT_MS / 1000} s: ${pending} requests pending, ${extract.active} extract jobs active)`);
      break;
    }
    await delay(50);
  }
  if (stack.extractorMetricsUrl) await storesSettled(stack.extractorMetricsUrl);
  await forgetStoredPages(DATABASE_URL, stack.hosts[0].origin);
}

interface SearchResult {
  url: string;
  raw_content?: string | null;
}

interface SearchResponse {
  results: SearchResult[];
  warnings?: string[];
}

interface SearchFigures {
  times: number[];
  /** Each search's time less the upstream's answer time (its floor). */
  overUpstream: number[];
  upstream: number[];
  results: number;
  withPage: number;
  snippetOnly: number;
  /** Results on URLs this search did not get from the upstream (pages stored by an earlier request). */
  foreign: number;
  warned: number;
}

/**
 * Whether a result came with its page: its raw content is more than the upstream's snippet. A result shown by its
 * snippet has the snippet as raw content, or none (null or absent) where the service says so that way.
 */
function hasPageContent(result: SearchResult, snippets: Map<string, string>): boolean {
  if (result.raw_content === null || result.raw_content === undefined) return false;
  const snippet = snippets.get(result.url) ?? '';
  return result.raw_content.trim().length > 2 * snippet.trim().length;
}

async function measureDepth(stack: Stack, depth: string, queries: string[]): Promise<SearchFigures> {
  const figures: SearchFigures = { times: [], overUpstream: [], upstream: [], results: 0, withPage: 0, snippetOnly: 0, foreign: 0, warned: 0 };
  for (const [index, query] of queries.entries()) {
    await forgetPages(stack);
    const visit = `${stack.runId}-${depth}-${index}`;
    stack.standIn.setVisit(visit);
    const callsBefore = stack.standIn.calls.length;
    const startedAt = performance.now();
    const response = await postJson<SearchResponse>(stack.gateway, stack.apiKey, '/search', {
      query,
      search_depth: depth,
      max_results: MAX_RESULTS,
      include_raw_content: 'markdown',
      ...(MAX_TOKENS ? { max_tokens: MAX_TOKENS } : {}),
    });
    const elapsedMs = performance.now() - startedAt;
    const calls = stack.standIn.calls.slice(callsBefore);
    const upstream = Math.max(0, ...calls.map((call) => call.delayMs));
    const snippets = new Map(calls.flatMap((call) => call.results.map((result) => [result.url, result.content] as const)));
    figures.times.push(elapsedMs);
    figures.upstream.push(upstream);
    figures.overUpstream.push(elapsedMs - upstream);
    figures.warned += response.warnings && response.warnings.length > 0 ? 1 : 0;
    for (const result of response.results) {
      figures.results += 1;
      if (!snippets.has(result.url)) figures.foreign += 1;
      else if (hasPageContent(result, snippets)) figures.withPage += 1;
      else figures.snippetOnly += 1;
    }
  }
  return figures;
}

async function measureSearch(stack: Stack): Promise<void> {
  const all = (JSON.parse(readFileSync(join(__dirname, 'queries.json'), 'utf8')) as { queries: string[] }).queries;
  const queries = Array.from({ length: QUERY_COUNT }, (_, index) => all[index % all.length]);
  const budget = MAX_TOKENS ? `, max_tokens ${MAX_TOKENS}` : '';
  console.log(`\n## Search: POST /search, ${queries.length} queries per depth, one client, max_results ${MAX_RESULTS}, include_raw_content markdown${budget}`);
  console.log('depth       |  p50 ms  p95 ms  p99 ms | upstream p50  p95 | over upstream p95 | target                    | met | results: page / snippet only / other; searches warned');
  for (const depth of DEPTHS) {
    const figures = await measureDepth(stack, depth, queries);
    const target = SEARCH_TARGETS[depth];
    console.log(
      `${depth.padEnd(11)} | ${ms(percentile(figures.times, 0.5)).padStart(7)} ${ms(percentile(figures.times, 0.95)).padStart(7)} ${ms(percentile(figures.times, 0.99)).padStart(7)} |` +
        ` ${ms(percentile(figures.upstream, 0.5)).padStart(12)} ${ms(percentile(figures.upstream, 0.95)).padStart(4)} | ${ms(percentile(figures.overUpstream, 0.95)).padStart(17)} |` +
        ` ${(target?.text ?? '').padEnd(25)} | ${target ? (target.met(figures.times, figures.overUpstream) ? 'yes' : 'no ') : ' – '} |` +
        ` ${figures.withPage} / ${figures.snippetOnly} / ${figures.foreign} of ${figures.results} (${((100 * figures.withPage) / Math.max(1, figures.results)).toFixed(0)} % with page); ${figures.warned}`,
    );
    console.log(`  times (ms, in query order): ${figures.times.map((time) => Math.round(time)).join(', ')}`);
  }
}

/** Pages of known latency for the extract part: answering, and not on the host that rate-limits. */
function knownLatencyPaths(stack: Stack): string[] {
  return stack.standIn.pages
    .map((page) => page.path)
    .filter((path) => pageFate(stack.profile, path).kind === 'answers' && pageHost(stack.profile, path) !== stack.profile.hosts.rateLimited.host);
}

/** `count` paths drawn for one request: the same for every run and checkout. */
function drawPaths(stack: Stack, paths: string[], draw: string, count: number): string[] {
  return [...paths].sort((left, right) => seededFraction(stack.profile.seed, draw, left) - seededFraction(stack.profile.seed, draw, right)).slice(0, count);
}

const latencyOf = (stack: Stack, path: string): number => {
  const fate = pageFate(stack.profile, path);
  return fate.kind === 'answers' ? fate.ms : Number.POSITIVE_INFINITY;
};

interface ExtractResponse {
  results: Array<{ url: string }>;
  failed_results: Array<{ url: string; error: string }>;
}

async function timedExtract(stack: Stack, urls: string[], timeoutSeconds?: number): Promise<{ elapsedMs: number; body: ExtractResponse }> {
  await forgetPages(stack);
  const startedAt = performance.now();
  const body = await postJson<ExtractResponse>(stack.gateway, stack.apiKey, '/extract', {
    urls,
    extract_depth: 'basic',
    format: 'markdown',
    ...(timeoutSeconds ? { timeout: timeoutSeconds } : {}),
  });
  return { elapsedMs: performance.now() - startedAt, body };
}

async function measureExtract(stack: Stack): Promise<void> {
  const paths = knownLatencyPaths(stack);
  console.log(`\n## Extract: POST /extract of ${EXTRACT_URLS} URLs of known latency (basic, markdown), target ≤ slowest URL + ${ALLOWANCE_MS} ms`);
  console.log('request | slowest URL (its latency ms)               | answered ms | over slowest ms | results / failed');
  const over: number[] = [];
  for (let repetition = 0; repetition < EXTRACT_REPETITIONS; repetition += 1) {
    const chosen = drawPaths(stack, paths, `extract-${repetition}`, EXTRACT_URLS);
    const slowest = chosen.reduce((worst, path) => (latencyOf(stack, path) > latencyOf(stack, worst) ? path : worst));
    const { elapsedMs, body } = await timedExtract(stack, chosen.map((path) => visitUrl(stack, path, `${stack.runId}-extract-${repetition}`)));
    over.push(elapsedMs - latencyOf(stack, slowest));
    console.log(
      `${String(repetition + 1).padStart(7)} | ${`${slowest} (${latencyOf(stack, slowest)})`.padEnd(42)} | ${ms(elapsedMs).padStart(11)} | ${ms(elapsedMs - latencyOf(stack, slowest)).padStart(15)} | ${body.results.length} / ${body.failed_results.length}`,
    );
  }
  console.log(`over slowest: p50 ${ms(percentile(over, 0.5))} ms, max ${ms(Math.max(...over))} ms; target met in ${over.filter((value) => value <= ALLOWANCE_MS).length} of ${over.length}`);
  if (EXTRACT_HANG_TIMEOUT_SECONDS > 0) {
    const hanging = stack.standIn.pages.map((page) => page.path).find((path) => pageFate(stack.profile, path).kind === 'hangs');
    if (!hanging) return;
    const others = drawPaths(stack, paths, 'extract-with-hang', EXTRACT_URLS - 1);
    const { elapsedMs, body } = await timedExtract(
      stack,
      [...others, hanging].map((path) => visitUrl(stack, path, `${stack.runId}-extract-hang`)),
      EXTRACT_HANG_TIMEOUT_SECONDS,
    );
    const slowestAnswering = Math.max(...others.map((path) => latencyOf(stack, path)));
    console.log(
      `with a page that never answers (${hanging}) and timeout ${EXTRACT_HANG_TIMEOUT_SECONDS} s: answered in ${ms(elapsedMs)} ms (target ≤ ${EXTRACT_HANG_TIMEOUT_SECONDS * 1000 + ALLOWANCE_MS});` +
        ` slowest answering URL ${slowestAnswering} ms; ${body.results.length} results / ${body.failed_results.length} failed`,
    );
  }
}

interface CrawlResponse {
  results: Array<{ url: string }>;
}

/**
 * One POST /crawl. Its time ends when the answer's last byte has arrived (`endedAt`), as an HTTP client's response
 * time does; `parsedAt` is when this process had also parsed it, a cost of the client (megabytes of JSON for a crawl,
 * parsed in this process beside the simulated hosts), printed beside it.
 */
async function timedCrawl(stack: Stack, host: SimulatedHost, limit: number): Promise<{ pages: number; bytes: number; startedAt: number; endedAt: number; parsedAt: number }> {
  await forgetPages(stack);
  const startedAt = performance.now();
  const answer = await postJsonTimed<CrawlResponse>(stack.gateway, stack.apiKey, '/crawl', {
    url: `${host.origin}/index.html`,
    max_depth: CRAWL_MAX_DEPTH,
    max_breadth: 500,
    limit,
    format: 'markdown',
    allow_external: false,
    timeout: 150,
  });
  return { pages: answer.body.results.length, bytes: answer.bytes, startedAt, endedAt: answer.lastByteAt, parsedAt: performance.now() };
}

/** The crawler's sift_crawl_host_limit_changes_total by change (grew, throttled, failed, slow), summed over hosts. */
async function limitChanges(stack: Stack): Promise<Record<string, number>> {
  if (!stack.crawlerMetricsUrl) return {};
  const text = await (await fetch(stack.crawlerMetricsUrl)).text();
  const counts: Record<string, number> = {};
  for (const match of text.matchAll(/^sift_crawl_host_limit_changes_total\{change="(\w+)"\} (\d+)/gm)) counts[match[1]] = Number(match[2]);
  return counts;
}

function subtractCounts(after: Record<string, number>, before: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(after).map(([key, count]) => [key, count - (before[key] ?? 0)]).filter(([, count]) => Number(count) > 0));
}

/** Pages a host answered 200 before `since` and after it, with the seconds each side spans (to its last answer). */
function paceAround(host: SimulatedHost, since: number, startedAt: number): { before: number; beforeSeconds: number; after: number; afterSeconds: number } {
  const pages = host.served.filter((response) => response.status === 200);
  const before = pages.filter((response) => response.at < since).length;
  const lastAt = Math.max(since, ...host.served.map((response) => response.at));
  return { before, beforeSeconds: (since - startedAt) / 1000, after: pages.length - before, afterSeconds: (lastAt - since) / 1000 };
}

/** The crawler's moves of a host's limit, as one line. */
const movesLine = (changes: Record<string, number>): string =>
  `  moves of the host's limit: ${Object.entries(changes).map(([change, count]) => `${change} ${count}`).join(', ') || 'none'}`;

/**
 * CPU time used so far (ms) by the machine (every process, and of it the hypervisor's steal), the crawler worker (and
 * its main thread: the rest are its parsing threads, V8's and libuv's), the gateway and this process.
 */
function crawlCpuMs(stack: Stack): Record<string, number> {
  const self = process.cpuUsage();
  return {
    machine: machineMs(),
    steal: machineStealMs(),
    crawler: stack.crawlerPid === undefined ? 0 : cpuMs(stack.crawlerPid),
    crawlerMain: stack.crawlerPid === undefined ? 0 : cpuMs(stack.crawlerPid, stack.crawlerPid),
    gateway: cpuMs(stack.gateway.pid),
    bench: (self.user + self.system) / 1000,
  };
}

/**
 * Starts counting the CPU a crawl keeps busy: the returned function gives what crawlCpuMs counts, and the database's
 * Postgres backends (by process: backendCpuSpentMs), spent since.
 */
function crawlCpuCounter(stack: Stack): () => Record<string, number> {
  const database = new URL(DATABASE_URL).pathname.slice(1);
  const before = crawlCpuMs(stack);
  const backendsBefore = databaseBackendCpuMs(database);
  return () => {
    const postgres = backendCpuSpentMs(backendsBefore, databaseBackendCpuMs(database));
    return { ...subtractCounts(crawlCpuMs(stack), before), postgres };
  };
}

/** One crawl of a host answering every request after `latencyMs`, printed; returns its share of the host's best. */
async function measureSteadyCrawl(stack: Stack, latencyMs: number, best: number, repetition: number): Promise<number> {
  const steady = await startSimulatedHost({ fate: () => ({ kind: 'answers', ms: latencyMs }) });
  try {
    const changesBefore = await limitChanges(stack);
    const cpuSince = crawlCpuCounter(stack);
    const run = await timedCrawl(stack, steady, 500);
    const cpu = cpuSince();
    const changes = subtractCounts(await limitChanges(stack), changesBefore);
    const seconds = (run.endedAt - run.startedAt) / 1000;
    const concurrency = steady.concurrency();
    console.log(
      `limit 500, steady host${CRAWL_REPETITIONS > 1 ? ` (crawl ${repetition} of ${CRAWL_REPETITIONS})` : ''}: ${run.pages} pages in ${seconds.toFixed(2)} s` +
        ` (to the answer's last byte; ${((run.parsedAt - run.startedAt) / 1000).toFixed(2)} s with its ${(run.bytes / 1e6).toFixed(1)} MB of JSON parsed by this benchmark's client)` +
        ` = ${(run.pages / seconds).toFixed(1)} pages/s; host's best possible ${best.toFixed(1)} pages/s` +
        ` (per-host ceiling ${HOST_CEILING} / ${latencyMs} ms): ${(run.pages / seconds / best).toFixed(2)} of it (target ≥ 0.8);` +
        ` requests in flight at the host: mean ${concurrency.mean.toFixed(1)}, peak ${concurrency.peak}`,
    );
    // The ceiling over the latency ignores what no crawler can skip: the start page answers before any page it links
    // to is known (robots.txt, asked for with it, answers in the same round trip). The shortest crawl of these pages
    // under the ceiling is that round trip, then the other pages `HOST_CEILING` at a time.
    const shortestSeconds = (latencyMs / 1000) * (1 + Math.ceil((run.pages - 1) / HOST_CEILING));
    console.log(
      `  the shortest crawl of ${run.pages} pages under the ceiling (the start page with robots.txt, then ${HOST_CEILING} at a time): ` +
        `${shortestSeconds.toFixed(2)} s = ${(run.pages / shortestSeconds).toFixed(1)} pages/s; this crawl reached ${(shortestSeconds / seconds).toFixed(2)} of it`,
    );
    // Links are known only once their page has answered: the shortest crawl that takes pages in the order found.
    const fetched = new Set(steady.served.filter((response) => response.status === 200 && response.path.endsWith('.html')).map((response) => response.path));
    const breadthFirst = shortestBreadthFirstCrawl(
      { startPath: '/index.html', paths: fetched, htmlOf: (path) => readFileSync(filePathOf(path), 'utf8'), origin: steady.origin, maxDepth: CRAWL_MAX_DEPTH },
      latencyMs,
      HOST_CEILING,
    );
    console.log(
      `  the shortest breadth-first crawl of ${breadthFirst.pages} of these pages (a page's links known once it has answered, pages taken in the order found, ${HOST_CEILING} at a time): ` +
        `${breadthFirst.seconds.toFixed(2)} s = ${(breadthFirst.pages / breadthFirst.seconds).toFixed(1)} pages/s, ${(breadthFirst.pages / breadthFirst.seconds / best).toFixed(2)} of the host's best;` +
        ` this crawl reached ${(breadthFirst.seconds / seconds).toFixed(2)} of it`,
    );
    // Before the first page the start page links to: when robots.txt and the start page were asked for, and answered.
    const firstOf = (path: string) => steady.served.find((response) => response.path === path);
    const robots = firstOf('/robots.txt');
    const start = firstOf('/index.html');
    if (robots && start) {
      console.log(
        `  robots.txt answered ${Math.round(robots.at - run.startedAt)} ms and the start page ${Math.round(start.at - run.startedAt)} ms after the POST` +
          ` (${start.at - robots.at >= latencyMs * 0.9 ? 'one after the other' : 'together'})`,
      );
    }
    // Between the first and the last moment the crawl held the ceiling: its pace once climbed, before the frontier ran dry.
    const timeline = steady.timeline();
    const fullFrom = timeline.find((point) => point.active >= HOST_CEILING)?.at;
    const fullUntil = timeline.findLast((point) => point.active >= HOST_CEILING)?.at;
    if (fullFrom !== undefined && fullUntil !== undefined && fullUntil > fullFrom) {
      const answered = steady.served.filter((response) => response.status === 200 && response.at >= fullFrom && response.at <= fullUntil).length;
      const pace = answered / ((fullUntil - fullFrom) / 1000);
      console.log(`  at the ceiling (${((fullUntil - fullFrom) / 1000).toFixed(2)} s from its first to its last moment at ${HOST_CEILING} in flight): ${pace.toFixed(1)} pages/s, ${(pace / best).toFixed(2)} of the host's best`);
    }
    console.log(`  most in flight per half second: ${concurrency.perWindow.join(' ')}`);
    console.log(`  mean in flight per half second: ${concurrency.meanPerWindow.map((mean) => mean.toFixed(1)).join(' ')}`);
    // Cores in use while the crawl ran: a machine near all of them is what bounds the crawl, not the host. Over the
    // span the CPU counters were read across, to the parsed answer.
    const cores = (key: string) => ((cpu[key] ?? 0) / (run.parsedAt - run.startedAt)).toFixed(2);
    console.log(
      `  cores busy during the crawl: the machine ${cores('machine')} of ${usableCpuCount()} (taken by the hypervisor ${cores('steal')});` +
        ` the crawler worker ${cores('crawler')} (its main thread ${cores('crawlerMain')}),` +
        ` Postgres's backends of the benchmark's database ${cores('postgres')}, the gateway ${cores('gateway')},` +
        ` this benchmark (hosts and client) ${cores('bench')}`,
    );
    // What the target asks of this machine at this cost a page: a figure above its cores cannot be met by pacing alone.
    const siftMsPerPage = ((cpu.crawler ?? 0) + (cpu.postgres ?? 0) + (cpu.gateway ?? 0)) / run.pages;
    console.log(
      `  Sift's CPU a page (crawler, Postgres, gateway): ${siftMsPerPage.toFixed(1)} ms; at 0.8 of the host's best (${(0.8 * best).toFixed(1)} pages/s) that is` +
        ` ${((siftMsPerPage * 0.8 * best) / 1000).toFixed(2)} cores of ${usableCpuCount()}`,
    );
    console.log(movesLine(changes));
    const firstAt = steady.served[0]?.at ?? run.startedAt;
    const lastAt = steady.served[steady.served.length - 1]?.at ?? run.endedAt;
    console.log(
      `  the host's first request to its last answer: ${(concurrency.spanMs / 1000).toFixed(2)} s of the crawl's ${seconds.toFixed(2)} s` +
        ` (first answer ${Math.round(firstAt - run.startedAt)} ms after the POST; the crawl's answer ${Math.round(run.endedAt - lastAt)} ms after the host's last)`,
    );
    return run.pages / seconds / best;
  } finally {
    await steady.close();
  }
}

/**
 * The peer: Crawlee's CheerioCrawler in a process of its own (bench/crawl/crawlee-crawl.ts), held at the host's ceiling
 * from its first request (its pool's minimum, maximum and starting concurrency), running this checkout's extraction on
 * every page and storing nothing. Its warm-up crawls another host, as Sift's does.
 */
async function startCrawleePeer(): Promise<PeerProcess<{ pages: number }>> {
  const other = await startSimulatedHost({ fate: () => ({ kind: 'answers', ms: 20 }) });
  try {
    const entry = join(__dirname, '..', 'crawl', 'crawlee-crawl.ts');
    return await startPeerProcess<{ pages: number }>(entry, [`${other.origin}/index.html`, String(HOST_CEILING), String(CRAWL_MAX_DEPTH), '500'], 'Crawlee');
  } finally {
    await other.close();
  }
}

/** One crawl of a steady host by the peer, printed; returns its share of the host's best. */
async function measurePeerCrawl(peer: PeerProcess<{ pages: number }>, latencyMs: number, best: number, repetition: number): Promise<number> {
  const steady = await startSimulatedHost({ fate: () => ({ kind: 'answers', ms: latencyMs }) });
  try {
    const cpuBefore = { machine: machineMs(), peer: cpuMs(peer.pid) };
    const startedAt = performance.now();
    const run = await peer.run(`${steady.origin}/index.html`);
    const elapsedMs = performance.now() - startedAt;
    const cpu = { machine: machineMs() - cpuBefore.machine, peer: cpuMs(peer.pid) - cpuBefore.peer };
    const seconds = elapsedMs / 1000;
    const concurrency = steady.concurrency();
    console.log(
      `Crawlee's CheerioCrawler, ${HOST_CEILING} in flight from the start, Sift's extraction of every page, nothing stored` +
        `${CRAWL_REPETITIONS > 1 ? ` (crawl ${repetition} of ${CRAWL_REPETITIONS})` : ''}: ${run.pages} pages in ${seconds.toFixed(2)} s =` +
        ` ${(run.pages / seconds).toFixed(1)} pages/s: ${(run.pages / seconds / best).toFixed(2)} of the host's best;` +
        ` requests in flight at the host: mean ${concurrency.mean.toFixed(1)}, peak ${concurrency.peak}`,
    );
    console.log(`  mean in flight per half second: ${concurrency.meanPerWindow.map((mean) => mean.toFixed(1)).join(' ')}`);
    console.log(
      `  cores busy during the crawl: the machine ${(cpu.machine / elapsedMs).toFixed(2)} of ${usableCpuCount()}, the Crawlee process ${(cpu.peer / elapsedMs).toFixed(2)};` +
        ` its CPU a page ${(cpu.peer / Math.max(1, run.pages)).toFixed(1)} ms`,
    );
    return run.pages / seconds / best;
  } finally {
    await steady.close();
  }
}

async function measureCrawl(stack: Stack): Promise<void> {
  const { crawl } = stack.profile;
  const latencyMs = Number(process.env.SIM_CRAWL_LATENCY_MS ?? crawl.latencyMs);
  const afterPages = Number(process.env.SIM_CRAWL_429_AFTER_PAGES ?? crawl.rateLimitAfterPages);
  const requestsPerSecond = Number(process.env.SIM_CRAWL_429_RATE ?? crawl.requestsPerSecond);
  const best = HOST_CEILING / (latencyMs / 1000);
  console.log(`\n## Crawl: POST /crawl of the site (depth 2, breadth 500, markdown), every response after ${latencyMs} ms`);
  if (!CRAWL_COLD) {
    // A worker's first crawl runs slower than the next (its threads' code is still being compiled), and a running
    // service's workers are warm. The warm-up crawls another host, so the measured crawl still starts with nothing known
    // of its host (its concurrency starts low and must climb).
    const other = await startSimulatedHost({ fate: () => ({ kind: 'answers', ms: 20 }) });
    try {
      const warm = await timedCrawl(stack, other, 500);
      console.log(`warm-up (another host, 20 ms a page; SIM_CRAWL_COLD=1 skips it): ${warm.pages} pages in ${((warm.endedAt - warm.startedAt) / 1000).toFixed(2)} s`);
    } finally {
      await other.close();
    }
  }
  // Each crawl of a new host (its own port): it starts with nothing known of the host, as the first one does. One
  // crawl's share moves by a few hundredths from run to run; the median of several is the figure.
  // The peer's crawl of a new host follows each of Sift's, so both meet the machine in the same state.
  const peer = CRAWL_PEER ? await startCrawleePeer() : undefined;
  const shares: number[] = [];
  const peerShares: number[] = [];
  try {
    for (let repetition = 1; repetition <= CRAWL_REPETITIONS; repetition += 1) {
      shares.push(await measureSteadyCrawl(stack, latencyMs, best, repetition));
      if (peer) peerShares.push(await measurePeerCrawl(peer, latencyMs, best, repetition));
    }
  } finally {
    await peer?.stop();
  }
  const sharesLine = (values: number[]): string =>
    `${values.map((share) => share.toFixed(2)).join(', ')} of the host's best; median ${percentile(values, 0.5).toFixed(2)}`;
  if (shares.length > 1) console.log(`steady host, ${shares.length} crawls of a new host each: ${sharesLine(shares)} (target ≥ 0.8)`);
  if (peerShares.length > 0) {
    console.log(`Crawlee's CheerioCrawler, ${peerShares.length} crawls of a new host each: ${sharesLine(peerShares)}`);
    console.log(`ratio Sift/Crawlee of the medians: ${(percentile(shares, 0.5) / percentile(peerShares, 0.5)).toFixed(2)}`);
  }

  const limited = await startSimulatedHost({
    fate: () => ({ kind: 'answers', ms: latencyMs }),
    rateLimit: { requestsPerSecond, retryAfterSeconds: crawl.retryAfterSeconds, afterPages },
  });
  try {
    const run = await timedCrawl(stack, limited, afterPages + CRAWL_PAGES_AFTER_LIMIT);
    const since = limited.rateLimitedSince();
    const throttled = limited.served.filter((response) => response.status === 429).length;
    console.log(
      `limit ${afterPages + CRAWL_PAGES_AFTER_LIMIT}, the host answering 429 (Retry-After ${crawl.retryAfterSeconds} s) above ${requestsPerSecond} requests/s once it has served ${afterPages} pages:` +
        ` ${run.pages} pages in ${((run.endedAt - run.startedAt) / 1000).toFixed(2)} s; ${throttled} requests answered 429`,
    );
    if (since === undefined) {
      console.log('  the crawl ended before the host started limiting');
      return;
    }
    const pace = paceAround(limited, since, run.startedAt);
    console.log(
      `  before the limit: ${pace.before} pages in ${pace.beforeSeconds.toFixed(2)} s = ${(pace.before / pace.beforeSeconds).toFixed(1)} pages/s;` +
        ` after: ${pace.after} pages in ${pace.afterSeconds.toFixed(2)} s = ${(pace.after / Math.max(0.001, pace.afterSeconds)).toFixed(1)} pages/s (the most the host allows: ${requestsPerSecond})`,
    );
    const seconds = Math.min(15, Math.ceil(pace.afterSeconds));
    const perSecond = Array.from({ length: seconds }, (_, second) => {
      const inSecond = limited.served.filter((response) => response.at >= since + second * 1000 && response.at < since + (second + 1) * 1000);
      return `${inSecond.length}(${inSecond.filter((response) => response.status === 429).length})`;
    });
    console.log(`  requests answered in each second after the limit started (of them 429): ${perSecond.join(' ')}`);
  } finally {
    await limited.close();
  }
  await measureSlowingCrawl(stack, latencyMs);
}

/**
 * A crawl of a host that starts answering slowly (every request after SIM_CRAWL_SLOW_MS, 1.5 s) once it has served
 * SIM_CRAWL_SLOW_AFTER_PAGES pages: the requests it holds in flight each second after, printed.
 */
async function measureSlowingCrawl(stack: Stack, latencyMs: number): Promise<void> {
  const { crawl } = stack.profile;
  const slowdown = {
    afterPages: Number(process.env.SIM_CRAWL_SLOW_AFTER_PAGES ?? crawl.slowAfterPages),
    ms: Number(process.env.SIM_CRAWL_SLOW_MS ?? crawl.slowLatencyMs),
  };
  const slowing = await startSimulatedHost({ fate: () => ({ kind: 'answers', ms: latencyMs }), slowdown });
  try {
    const changesBefore = await limitChanges(stack);
    const run = await timedCrawl(stack, slowing, slowdown.afterPages + CRAWL_PAGES_AFTER_SLOWING);
    const changes = subtractCounts(await limitChanges(stack), changesBefore);
    const since = slowing.slowSince();
    console.log(
      `limit ${slowdown.afterPages + CRAWL_PAGES_AFTER_SLOWING}, the host answering in ${slowdown.ms} ms instead of ${latencyMs} once it has served ${slowdown.afterPages} pages:` +
        ` ${run.pages} pages in ${((run.endedAt - run.startedAt) / 1000).toFixed(2)} s`,
    );
    if (since === undefined) {
      console.log('  the crawl ended before the host slowed down');
      return;
    }
    const pace = paceAround(slowing, since, run.startedAt);
    console.log(
      `  before: ${pace.before} pages in ${pace.beforeSeconds.toFixed(2)} s = ${(pace.before / pace.beforeSeconds).toFixed(1)} pages/s;` +
        ` after: ${pace.after} pages in ${pace.afterSeconds.toFixed(2)} s`,
    );
    const perSecond = slowing.meanInFlightFrom(since, 1000);
    const quarter = perSecond.findIndex((mean) => mean <= HOST_CEILING / 4);
    console.log(
      `  mean requests in flight at the host in each second after it slowed: ${perSecond.map((mean) => mean.toFixed(1)).join(' ')}` +
        ` (a quarter of the ceiling or fewer from second ${quarter < 0 ? '–' : quarter + 1})`,
    );
    console.log(movesLine(changes));
  } finally {
    await slowing.close();
  }
}

/**
 * Unmeasured requests, so the first measured ones do not pay for the processes' first requests (connections, code
 * compiled on first use, the parsing threads): a search at each depth that fetches nothing, and an extraction of the
 * quickest page.
 */
async function warmUp(stack: Stack): Promise<void> {
  if (!PARTS.has('search') && !PARTS.has('extract')) return;
  stack.standIn.setVisit(`${stack.runId}-warm-up`);
  for (const depth of ['ultra-fast', 'fast']) await postJson(stack.gateway, stack.apiKey, '/search', { query: 'git documentation', search_depth: depth, max_results: MAX_RESULTS });
  const quickest = [...knownLatencyPaths(stack)].sort((left, right) => latencyOf(stack, left) - latencyOf(stack, right))[0];
  await timedExtract(stack, [visitUrl(stack, quickest, `${stack.runId}-warm-up`)]);
}

async function main(): Promise<void> {
  const root = process.env.SIM_ROOT ? resolve(process.env.SIM_ROOT) : repositoryRoot;
  const profile = loadLatencyProfile();
  console.log(`load average at start: ${loadLine()}; ${usableCpuCount()} usable CPUs; Sift from ${root}`);
  console.log(
    `profile: pages ${profile.pages.bands.map((band) => `${Math.round(band.share * 100)} % ${band.minMs}–${band.maxMs} ms`).join(', ')}, ${Math.round(profile.pages.hangShare * 100)} % never answer;` +
      ` ${profile.hosts.count} hosts, host ${profile.hosts.rateLimited.host} answers 429 above ${profile.hosts.rateLimited.requestsPerSecond} requests/s;` +
      ` SearXNG stand-in ${profile.searxng.minMs}–${profile.searxng.maxMs} ms, ${profile.searxng.resultsPerQuery} results`,
  );
  const started: (() => Promise<unknown>)[] = [];
  let env: Record<string, string> | undefined;
  try {
    const hosts: SimulatedHost[] = [];
    for (let index = 0; index < profile.hosts.count; index += 1) {
      const limit = profile.hosts.rateLimited;
      const host = await startSimulatedHost({ fate: (path) => pageFate(profile, path), rateLimit: index === limit.host ? { ...limit, afterPages: 0 } : undefined });
      started.push(() => host.close());
      hosts.push(host);
    }
    const standIn = await startSearxngStandIn({
      delayOf: (query) => upstreamMs(profile, query),
      originOf: (path) => hosts[pageHost(profile, path)].origin,
      resultsPerQuery: profile.searxng.resultsPerQuery,
    });
    started.push(() => standIn.close());
    env = benchStackEnv(DATABASE_URL, 'simulated-web', { EXTRACTOR_PORT: '0', CRAWLER_PORT: '0', RATE_LIMIT_CRAWL_PER_MINUTE: '100000', SEARXNG_URL: standIn.url });
    // A fresh database each run, created and migrated by the measured checkout's own admin command line.
    await dropDatabase(DATABASE_URL);
    const apiKey = await createBenchKey(DATABASE_URL, root);
    const workers: Promise<BenchWorker>[] = [];
    if (PARTS.has('search') || PARTS.has('extract')) workers.push(startBenchWorker('extractor-worker', env, undefined, root));
    if (PARTS.has('crawl')) workers.push(startBenchWorker('crawler-worker', env, undefined, root));
    const runningWorkers = await Promise.all(workers);
    for (const worker of runningWorkers) started.push(() => worker.stop());
    const crawler = PARTS.has('crawl') ? runningWorkers[runningWorkers.length - 1] : undefined;
    // GATEWAY_NODE_ARGS / WORKER_NODE_ARGS: Node's own flags for the gateway / the workers (e.g. "--cpu-prof").
    const gateway = await startGateway(DATABASE_URL, env, root, (process.env.GATEWAY_NODE_ARGS ?? '').split(' ').filter(Boolean));
    started.push(() => gateway.stop());
    const redis = createRedisConnection(env.REDIS_URL ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { failFast: true });
    const jobs = new JobQueue({ connection: redis, prefix: env.QUEUE_PREFIX });
    started.push(async () => {
      await jobs.close();
      redis.disconnect();
    });
    const crawlerMetricsUrl = crawler ? `http://127.0.0.1:${String(crawler.started.port)}/metrics` : undefined;
    const extractor = PARTS.has('search') || PARTS.has('extract') ? runningWorkers[0] : undefined;
    const extractorMetricsUrl = extractor ? `http://127.0.0.1:${String(extractor.started.port)}/metrics` : undefined;
    const stack: Stack = { gateway, apiKey, profile, hosts, standIn, jobs, runId: randomBytes(3).toString('hex'), crawlerMetricsUrl, crawlerPid: crawler?.pid, extractorMetricsUrl };
    await warmUp(stack);
    if (PARTS.has('search')) await measureSearch(stack);
    if (PARTS.has('extract')) await measureExtract(stack);
    if (PARTS.has('crawl')) await measureCrawl(stack);
  } finally {
    await Promise.allSettled(started.reverse().map((stop) => stop()));
    if (env) await dropBenchQueues(env).catch((error: unknown) => console.error("could not drop the benchmark's queues", error));
    console.log(`\nload average at end: ${loadLine()}`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
