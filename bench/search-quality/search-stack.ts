// The pieces a search benchmark needs to measure Sift as a user runs it: a fresh database filled through the
// admin command line, the gateway as its own process, an API key, and POST /search over loopback.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { freePortBelowEphemeralRange } from '@sift/testing';

const run = promisify(execFile);
export const repositoryRoot = resolve(__dirname, '../..');

/**
 * What starts one of Sift's entry points as `npm start` does: scripts/run.js, which runs the compiled build when it is
 * up to date. For this checkout the build is made first when it is stale (scripts/build.js), so a benchmark measures
 * the processes users run, not TypeScript compiled on start, whose loader keeps the TypeScript compiler in the heap
 * (about 18 MB more for every garbage collection to mark; docs/benchmarks.md, round 12). Another checkout (an A/B
 * against an older commit) runs as its own scripts/run.js decides. BENCH_FROM_TYPESCRIPT=1 starts them from TypeScript
 * instead (scripts/run-ts.js), to measure what running compiled saves.
 */
export function entryRunner(root = repositoryRoot): string {
  if (process.env.BENCH_FROM_TYPESCRIPT === '1') return 'scripts/run-ts.js';
  if (root === repositoryRoot) buildScripts().buildIfStale();
  return 'scripts/run.js';
}

/**
 * Compiles a benchmark's own entry point (a peer measured in a process of its own) into dist/ beside the build, with
 * the build's settings, and returns the compiled file.
 */
export function compiledBenchEntry(file: string): string {
  entryRunner();
  buildScripts().compile(file);
  return resolve(repositoryRoot, 'dist', relative(repositoryRoot, file).replace(/\.ts$/, '.js'));
}

/** scripts/build.js: plain JavaScript in scripts/ (no Nx project, so no import path of its own). */
function buildScripts(): { buildIfStale(): boolean; compile(file: string): void } {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(resolve(repositoryRoot, 'scripts', 'build.js')) as { buildIfStale(): boolean; compile(file: string): void };
}
const gatewayStartTimeoutMs = 120_000;

/** Drops and re-creates the database; the admin command line creates and migrates it on first use. */
export async function dropDatabase(url: string): Promise<void> {
  const admin = new URL(url);
  const name = decodeURIComponent(admin.pathname.slice(1));
  admin.pathname = '/postgres';
  const client = new Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name.replace(/"/g, '""')}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

/** `npm run admin -- <args>` as a child process; its stderr (migration notes, progress) passes through. */
export async function runAdmin(databaseUrl: string, args: string[], root = repositoryRoot, env: Record<string, string> = {}): Promise<string> {
  const child = run(process.execPath, [entryRunner(root), 'apps/admin-cli/src/main.ts', ...args], {
    cwd: root,
    env: { ...process.env, SWC_NODE_PROJECT: resolve(root, 'tsconfig.runtime.json'), DATABASE_URL: databaseUrl, ...env },
    maxBuffer: 64 * 1024 * 1024,
  });
  child.child.stderr?.pipe(process.stderr);
  const { stdout } = await child;
  return stdout;
}

/** Imports a JSONL file through `admin index import` and returns its counts. */
export async function importThroughAdmin(databaseUrl: string, file: string): Promise<{ imported: number; skipped: number; seconds: number }> {
  const stdout = await runAdmin(databaseUrl, ['index', 'import', file, '--json']);
  return JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as { imported: number; skipped: number; seconds: number };
}

/**
 * Gives every stored chunk a vector of the embedding model in `env` (EMBEDDINGS_*) through `admin index embed`, as an
 * operator backfills an index; returns the chunks it embedded.
 */
export async function embedThroughAdmin(databaseUrl: string, env: Record<string, string>): Promise<{ embedded: number; seconds: number }> {
  const started = performance.now();
  const stdout = await runAdmin(databaseUrl, ['index', 'embed', '--batch-size', '64', '--json'], repositoryRoot, env);
  const result = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as { embedded?: number };
  return { embedded: result.embedded ?? 0, seconds: (performance.now() - started) / 1000 };
}

/** A production key on the enterprise plan, created through `admin keys create` (of the checkout at `root`). */
export async function createBenchKey(databaseUrl: string, root = repositoryRoot): Promise<string> {
  const stdout = await runAdmin(databaseUrl, ['keys', 'create', '--account', `bench-${Date.now()}`, '--plan', 'enterprise', '--env', 'prod', '--json'], root);
  const created = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as { api_key?: string };
  if (!created.api_key) throw new Error(`keys create printed no key: ${stdout}`);
  return created.api_key;
}

export interface GatewayProcess {
  baseUrl: string;
  pid: number;
  stop(): Promise<void>;
}

/**
 * Starts `apps/gateway/src/main.ts` (of the checkout at `root`, this one by default; `nodeArguments` such as
 * `--cpu-prof` go to node) on a free port against the database, and resolves once /health answers 200.
 */
export async function startGateway(databaseUrl: string, env: Record<string, string> = {}, root = repositoryRoot, nodeArguments: string[] = []): Promise<GatewayProcess> {
  const port = await freePortBelowEphemeralRange();
  const child: ChildProcess = spawn(process.execPath, [...nodeArguments, entryRunner(root), 'apps/gateway/src/main.ts'], {
    cwd: root,
    env: { ...process.env, SWC_NODE_PROJECT: resolve(root, 'tsconfig.runtime.json'), PORT: String(port), DATABASE_URL: databaseUrl, SIFT_LOG_LEVEL: 'warn', SEARXNG_URL: '', LLM_BASE_URL: '', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errorOutput = '';
  child.stderr?.on('data', (chunk: Buffer) => (errorOutput = (errorOutput + chunk.toString()).slice(-4000)));
  const exited = new Promise<never>((_resolve, reject) =>
    child.once('exit', (code) => reject(new Error(`the gateway exited (${code}) before it was ready:\n${errorOutput}`))),
  );
  const baseUrl = `http://127.0.0.1:${port}`;
  const ready = (async () => {
    const startedAt = Date.now();
    while (Date.now() - startedAt < gatewayStartTimeoutMs) {
      try {
        if ((await fetch(`${baseUrl}/health`)).status === 200) return;
      } catch {
        // Not listening yet.
      }
      await new Promise((done) => setTimeout(done, 250));
    }
    throw new Error(`the gateway did not answer /health within ${gatewayStartTimeoutMs / 1000} s:\n${errorOutput}`);
  })();
  try {
    await Promise.race([ready, exited]);
  } catch (error) {
    child.kill('SIGTERM');
    throw error;
  }
  exited.catch(() => undefined);
  return {
    baseUrl,
    pid: child.pid ?? 0,
    stop: () => stopChild(child),
  };
}

/** SIGTERM, then resolves once the process has exited (at once if it already has). */
export async function stopChild(child: ChildProcess): Promise<void> {
  // Exited already, by itself or by a signal (then exitCode stays null).
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise<void>((done) => child.once('exit', () => done()));
  child.kill('SIGTERM');
  await gone;
}

export interface SearchHit {
  url: string;
  title: string;
  score: number;
}

/** POST /search as an API client sends it; throws with the body on any non-200 answer. */
export async function searchOverHttp(gateway: GatewayProcess, apiKey: string, body: Record<string, unknown>): Promise<SearchHit[]> {
  const response = await fetch(`${gateway.baseUrl}/search`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`POST /search answered ${response.status}: ${text.slice(0, 500)}`);
  return (JSON.parse(text) as { results: SearchHit[] }).results;
}
