// Crawl benchmark, end to end: POST /crawl to a gateway process whose crawler worker (its own process) crawls the
// Git documentation site served on loopback, against Crawlee's CheerioCrawler fetching the same pages with the
// same concurrency and the same extraction function in this process; then POST /map of the same site.
// Sift is measured twice: with its default extraction threads (one per CPU) and with CRAWL_EXTRACTION_THREADS=1,
// so the figure of its architecture and the figure on one extraction core are both on record.
// Run: node scripts/run-ts.js bench/crawl/run.ts
// With CRAWL_BENCH_CPU_PROFILE_DIR=<dir> the crawler worker writes a V8 CPU profile (.cpuprofile) there when it stops.
import { ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { promisify } from 'node:util';
import { CheerioCrawler, Configuration, type EnqueueLinksOptions } from '@crawlee/cheerio';
import { extractHtml } from '@sift/content-extraction';
import { startGitDocsSite } from '@sift/testing';
import { createBenchKey, repositoryRoot, startGateway, type GatewayProcess } from '../search-quality/search-stack';

const run = promisify(execFile);
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

/** Settings shared by the gateway and the crawler worker: same database, Redis and queue prefix. */
function stackEnv(): Record<string, string> {
  return {
    DATABASE_URL,
    QUEUE_PREFIX: `bench-crawl-${randomBytes(4).toString('hex')}`,
    FETCH_ALLOW_CIDRS: '127.0.0.1/32',
    CRAWLER_PORT: '0',
    RATE_LIMIT_DEV_PER_MINUTE: '100000',
    RATE_LIMIT_PROD_PER_MINUTE: '100000',
    RATE_LIMIT_CRAWL_PER_MINUTE: '100000',
    SIFT_LOG_LEVEL: 'warn',
  };
}

interface WorkerProcess {
  /** As the worker reported at start-up. */
  extractionThreads: number;
  stop(): Promise<void>;
}

/** `apps/crawler-worker/src/main.ts` as its own process; resolves once it consumes its queue. */
async function startCrawlerWorker(env: Record<string, string>): Promise<WorkerProcess> {
  const profileDir = process.env.CRAWL_BENCH_CPU_PROFILE_DIR;
  const profiling = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  const child: ChildProcess = spawn(process.execPath, [...profiling, 'scripts/run-ts.js', 'apps/crawler-worker/src/main.ts'], {
    cwd: repositoryRoot,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let output = '';
  const extractionThreads = await new Promise<number>((resolve, reject) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-4000);
      const started = /crawler worker started.*"extractionThreads":(\d+)/.exec(output);
      if (started) resolve(Number(started[1]));
    });
    child.once('exit', (code) => reject(new Error(`the crawler worker exited (${code}) before starting:\n${output}`)));
  });
  return {
    extractionThreads,
    stop: async () => {
      if (child.exitCode !== null) return;
      const gone = new Promise<void>((done) => child.once('exit', () => done()));
      child.kill('SIGTERM');
      await gone;
    },
  };
}

async function post<Body>(gateway: GatewayProcess, apiKey: string, path: string, body: Record<string, unknown>): Promise<Body> {
  const response = await fetch(`${gateway.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`POST ${path} answered ${response.status}: ${text.slice(0, 500)}`);
  return JSON.parse(text) as Body;
}

async function runSift(gateway: GatewayProcess, apiKey: string, root: string): Promise<RunFigures> {
  const startedAt = performance.now();
  const body = await post<{ results: unknown[] }>(gateway, apiKey, '/crawl', {
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
  const body = await post<{ results: string[] }>(gateway, apiKey, '/map', {
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
  const env = stackEnv();
  await run(process.execPath, ['scripts/run-ts.js', 'prisma/migrate.ts'], { cwd: repositoryRoot, env: { ...process.env, DATABASE_URL } });
  const site = await startGitDocsSite();
  let worker = await startCrawlerWorker(env);
  const gateway = await startGateway(DATABASE_URL, env);
  const root = `${site.origin}/index.html`;
  try {
    const apiKey = await createBenchKey(DATABASE_URL);
    // One warm-up of each so neither pays for module loading or JIT in the measured run.
    await runSift(gateway, apiKey, root);
    await runCrawlee(root);
    const sift = await runSift(gateway, apiKey, root);
    const siftThreads = worker.extractionThreads;
    const crawlee = await runCrawlee(root);
    const map = await runMap(gateway, apiKey, root);
    // The same stack with one extraction thread: a worker on the same queue, started after the first one stopped.
    await worker.stop();
    worker = await startCrawlerWorker({ ...env, CRAWL_EXTRACTION_THREADS: '1' });
    await runSift(gateway, apiKey, root);
    const siftOneThread = await runSift(gateway, apiKey, root);
    const rate = (figures: RunFigures): number => figures.pages / figures.seconds;
    const line = (label: string, figures: RunFigures): string =>
      `${label.padEnd(38)} ${figures.pages} pages in ${figures.seconds.toFixed(2)} s = ${rate(figures).toFixed(1)} pages/s`;
    console.log(
      `fetch concurrency ${CONCURRENCY}, depth ${MAX_DEPTH}, breadth ${MAX_BREADTH}, robots.txt obeyed, markdown via @sift/content-extraction, ${availableParallelism()} CPUs`,
    );
    console.log(line(`sift POST /crawl (${siftThreads} extraction threads)`, sift));
    console.log(line('sift POST /crawl (1 extraction thread)', siftOneThread));
    console.log(line('crawlee CheerioCrawler', crawlee));
    console.log(`ratio sift/crawlee ${(rate(sift) / rate(crawlee)).toFixed(2)} (1 extraction thread: ${(rate(siftOneThread) / rate(crawlee)).toFixed(2)})`);
    console.log(`POST /map ${map.pages} URLs in ${(map.seconds * 1000).toFixed(0)} ms`);
  } finally {
    await Promise.allSettled([gateway.stop(), worker.stop(), site.close()]);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
