import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { dropDatabase, entryRunner, type GatewayProcess, repositoryRoot, stopChild } from '../search-quality/search-stack';
import { createRedisConnection, waitForRedis } from '@sift/queue';
import { Client } from 'pg';

// What the end-to-end benchmarks of the workers (bench/crawl, bench/extract-requests) share besides the gateway.

/**
 * Settings the gateway and the benchmark's worker share: the same database, Redis and a fresh queue prefix, loopback
 * fetches allowed, rate limits out of the way, quiet logs; `extra` adds what one benchmark needs.
 */
export function benchStackEnv(databaseUrl: string, name: string, extra: Record<string, string>): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    QUEUE_PREFIX: `bench-${name}-${randomBytes(4).toString('hex')}`,
    FETCH_ALLOW_CIDRS: '127.0.0.1/32',
    RATE_LIMIT_DEV_PER_MINUTE: '100000',
    RATE_LIMIT_PROD_PER_MINUTE: '100000',
    SIFT_LOG_LEVEL: 'warn',
    ...extra,
  };
}

/**
 * Deletes what a benchmark's queues left in Redis (every key under its QUEUE_PREFIX): no later job of that prefix
 * completes to remove its completed jobs, which hold whole pages (an extract-requests run left about 140 MB).
 */
export async function dropBenchQueues(env: Record<string, string>): Promise<void> {
  // Fail fast: a benchmark that ends with Redis gone reports it instead of waiting for it.
  const redis = createRedisConnection(env.REDIS_URL ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { failFast: true });
  try {
    if (!(await waitForRedis(redis, 5_000))) throw new Error('Redis did not answer within 5 s');
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${env.QUEUE_PREFIX}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

/** Applies the migrations to a benchmark's own database (created when missing). */
export async function migrateBenchDatabase(databaseUrl: string): Promise<void> {
  await promisify(execFile)(process.execPath, [entryRunner(), 'prisma/migrate.ts'], { cwd: repositoryRoot, env: { ...process.env, DATABASE_URL: databaseUrl } });
}

/**
 * Drops a benchmark's database and migrates it anew (the migration runner creates it), so no earlier run's rows or
 * garbage are in it, then runs `setupSql` when given (a schema change to measure against the current one). Returns
 * the database's name.
 */
export async function recreateBenchDatabase(databaseUrl: string, setupSql?: string): Promise<string> {
  await dropDatabase(databaseUrl);
  await migrateBenchDatabase(databaseUrl);
  if (setupSql) {
    const client = new Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      await client.query(setupSql);
    } finally {
      await client.end();
    }
  }
  return decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
}

/**
 * Removes the pages stored under `origin`'s host, whatever their port (their postings, chunks and links go with
 * them), so the next crawl or extraction stores every page for the first time, as on a fresh install. A page stored
 * again unchanged is only refreshed (PageRepository.save), which a benchmark repeating the same requests would
 * otherwise measure. Any port: a benchmark's site listens on a new port each run, and the pages of earlier runs stayed
 * (round 20: `sift_bench_crawl` held 17 runs' worth, 3,770 pages and 1.4 million postings, and a first store's Postgres
 * CPU had grown from 7.4 to 10.3 ms a page over one session's runs).
 *
 * Then vacuums the tables, as autovacuum would soon after such a delete: the machines these benchmarks run on
 * may have autovacuum off (the development machines' Postgres does), and without it every run left its pages' rows
 * dead in the tables and their indexes (after a few runs, 0.8 million dead postings beside 0.4 million live ones), so
 * the next run's inserts paid for the previous runs' garbage (uniqueness checks against dead versions of the same
 * URL, index pages full of dead entries).
 */
export async function forgetStoredPages(databaseUrl: string, origin: string): Promise<void> {
  const { protocol, hostname } = new URL(origin);
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`DELETE FROM documents WHERE url LIKE $1 || '%'`, [`${protocol}//${hostname}:`]);
    await client.query('VACUUM (ANALYZE) documents, document_postings, document_chunks, document_links');
  } finally {
    await client.end();
  }
}

/**
 * Waits until the extractor worker (its GET /metrics) has no store running for a job that has answered
 * (`sift_page_stores_pending`): an extract or a search answers before its pages are stored, and a benchmark that
 * forgets or re-requests them must not race those stores, nor count their work in its next request. A worker without
 * the gauge (an older checkout's) stores before it answers. Gives up after `timeoutMs`.
 */
export async function storesSettled(metricsUrl: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const text = await (await fetch(metricsUrl)).text();
    const pending = Number(/^sift_page_stores_pending (\S+)$/m.exec(text)?.[1] ?? 0);
    if (pending === 0) return;
    if (Date.now() > deadline) throw new Error(`${pending} page stores still running ${timeoutMs} ms after their answers`);
    await new Promise((done) => setTimeout(done, 10));
  }
}

/** POST as an API client sends it; throws with the body on any non-200 answer. */
export async function postJson<Body>(gateway: GatewayProcess, apiKey: string, path: string, body: Record<string, unknown>): Promise<Body> {
  return (await postJsonTimed<Body>(gateway, apiKey, path, body)).body;
}

export interface TimedAnswer<Body> {
  body: Body;
  /** performance.now() when the answer's last byte arrived, before the client decoded and parsed it. */
  lastByteAt: number;
  /** Bytes of the answer. */
  bytes: number;
}

/**
 * postJson with the moment the answer's last byte arrived. The answer is read as axios (the transport of the official
 * JavaScript client, @tavily/core) reads it: node:http's chunks, joined once and parsed after the last.
 */
export function postJsonTimed<Body>(gateway: GatewayProcess, apiKey: string, path: string, body: Record<string, unknown>): Promise<TimedAnswer<Body>> {
  const payload = Buffer.from(JSON.stringify(body), 'utf8');
  const headers = { 'content-type': 'application/json', 'content-length': payload.length, authorization: `Bearer ${apiKey}` };
  return new Promise<TimedAnswer<Body>>((resolve, reject) => {
    const outgoing = httpRequest(`${gateway.baseUrl}${path}`, { method: 'POST', headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.once('error', reject);
      response.once('end', () => {
        const lastByteAt = performance.now();
        const bytes = Buffer.concat(chunks);
        const text = bytes.toString('utf8');
        if (response.statusCode !== 200) return reject(new Error(`POST ${path} answered ${response.statusCode}: ${text.slice(0, 500)}`));
        try {
          resolve({ body: JSON.parse(text) as Body, lastByteAt, bytes: bytes.length });
        } catch (error) {
          reject(error);
        }
      });
    });
    outgoing.once('error', reject);
    outgoing.end(payload);
  });
}

export interface BenchWorker {
  /** The worker's "started" log line (JSON): concurrency, threads, port. */
  started: Record<string, unknown>;
  /** The worker's process id (its parsing threads run inside it). */
  pid: number;
  stop(): Promise<void>;
}

/**
 * `apps/<app>/src/main.ts` (of the checkout at `root`, this one by default) as its own process, as `npm start` runs
 * it; resolves once it consumes its queue. With `cpuProfileDir` it writes a V8 CPU profile (.cpuprofile) there when it
 * stops.
 */
export async function startBenchWorker(app: 'crawler-worker' | 'extractor-worker', env: Record<string, string>, cpuProfileDir?: string, root = repositoryRoot): Promise<BenchWorker> {
  const profiling = cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${cpuProfileDir}`] : [];
  // Node's own flags for the worker (e.g. "--trace-gc"), as GATEWAY_NODE_ARGS for the search benchmarks' gateway.
  const nodeArguments = (process.env.WORKER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child: ChildProcess = spawn(process.execPath, [...profiling, ...nodeArguments, entryRunner(root), `apps/${app}/src/main.ts`], {
    cwd: root,
    // The "started" line is logged at info: a quieter level would hide it.
    env: { ...process.env, SWC_NODE_PROJECT: resolve(root, 'tsconfig.runtime.json'), ...env, SIFT_LOG_LEVEL: 'log' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const startedMessage = `${app.replace(/-worker$/, '')} worker started`;
  let output = '';
  const started = await new Promise<Record<string, unknown>>((resolve, reject) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-4000);
      const line = output.split('\n').find((candidate) => candidate.includes(`"${startedMessage}"`));
      if (line) resolve(JSON.parse(line) as Record<string, unknown>);
    });
    child.once('exit', (code) => reject(new Error(`the ${app} exited (${code}) before starting:\n${output}`)));
  });
  return {
    started,
    pid: child.pid ?? 0,
    stop: () => stopChild(child),
  };
}
