// Sift as `npm start` runs it (scripts/start.js: migrations, the gateway and every worker) for the research
// benchmark, and the two calls a research client makes: POST /research, then GET /research/{id} until it is done.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { freePortBelowEphemeralRange } from '@sift/testing';
// eslint-disable-next-line @nx/enforce-module-boundaries -- the benchmarks share one stack helper; bench projects are not libraries
import { repositoryRoot } from '../search-quality/search-stack';

const startTimeoutMs = 180_000;
const pollIntervalMs = 200;

export interface SiftProcesses {
  baseUrl: string;
  stop(): Promise<void>;
}

async function healthy(baseUrl: string): Promise<boolean> {
  try {
    return (await fetch(`${baseUrl}/health`)).status === 200;
  } catch {
    return false;
  }
}

/**
 * Starts the whole stack on a free port against the database, with loopback pages allowed as egress targets, no
 * SearXNG and no LLM (so the report is extractive); resolves once /health answers and the research and extractor
 * workers have registered their queues.
 */
export async function startSift(databaseUrl: string, env: Record<string, string> = {}): Promise<SiftProcesses> {
  const port = await freePortBelowEphemeralRange();
  const child: ChildProcess = spawn(process.execPath, [join(repositoryRoot, 'scripts', 'start.js')], {
    cwd: repositoryRoot,
    env: {
      ...process.env,
      PORT: String(port),
      DATABASE_URL: databaseUrl,
      QUEUE_PREFIX: `bench-research-${randomBytes(4).toString('hex')}`,
      FETCH_ALLOW_CIDRS: '127.0.0.1/32',
      EXTRACTOR_PORT: '0',
      CRAWLER_PORT: '0',
      RESEARCH_PORT: '0',
      SEARXNG_URL: '',
      LLM_BASE_URL: '',
      // The workers say they started at level log; under warn (what this once set) the wait below never ended.
      SIFT_LOG_LEVEL: 'log',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, so stop() reaches every child the supervisor started.
    detached: true,
  });
  let output = '';
  const started = new Set<string>();
  // Each worker's line is noted as it passes: the gateway's route lines that follow can push it out of the tail kept.
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
    for (const worker of ['research', 'extractor']) if (output.includes(`${worker} worker started`)) started.add(worker);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const baseUrl = `http://127.0.0.1:${port}`;
  const startedAt = Date.now();
  while (!(started.size === 2 && (await healthy(baseUrl)))) {
    if (child.exitCode !== null || Date.now() - startedAt > startTimeoutMs) {
      if (child.exitCode === null && child.pid) process.kill(-child.pid, 'SIGKILL');
      throw new Error(`Sift did not become ready:\n${output.slice(-4000)}`);
    }
    await new Promise((done) => setTimeout(done, 250));
  }
  return {
    baseUrl,
    stop: async () => {
      if (child.exitCode !== null || !child.pid) return;
      const gone = new Promise<void>((done) => child.once('exit', () => done()));
      process.kill(-child.pid, 'SIGTERM');
      await gone;
    },
  };
}

export interface ResearchSource {
  title: string;
  url: string;
  favicon?: string | null;
}

/** GET /research/{id} once it is no longer pending or running. */
export interface FinishedResearch {
  request_id: string;
  status: 'completed' | 'failed';
  content?: string | Record<string, unknown>;
  sources?: ResearchSource[];
  error?: string;
}

export interface TimedResearch {
  task: FinishedResearch;
  /** From sending POST /research to the poll that saw the task finished. */
  seconds: number;
}

async function call(baseUrl: string, apiKey: string, method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; json: unknown; retryAfterSeconds: number }> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, json: text ? (JSON.parse(text) as unknown) : null, retryAfterSeconds: Number(response.headers.get('retry-after') ?? 1) };
}

/**
 * Creates a research task and polls it to its end. A POST answered 429 (research is limited per key and minute)
 * waits as told and is sent again; the clock starts at the POST that is accepted.
 */
export async function researchToCompletion(baseUrl: string, apiKey: string, body: Record<string, unknown>, timeoutMs: number): Promise<TimedResearch> {
  for (;;) {
    const startedAt = performance.now();
    const created = await call(baseUrl, apiKey, 'POST', '/research', body);
    if (created.status === 429) {
      await new Promise((done) => setTimeout(done, Math.max(1, created.retryAfterSeconds) * 1000));
      continue;
    }
    if (created.status !== 200) throw new Error(`POST /research answered ${created.status}: ${JSON.stringify(created.json)}`);
    const requestId = (created.json as { request_id: string }).request_id;
    while (performance.now() - startedAt < timeoutMs) {
      const polled = await call(baseUrl, apiKey, 'GET', `/research/${requestId}`);
      if (polled.status === 200) return { task: polled.json as FinishedResearch, seconds: (performance.now() - startedAt) / 1000 };
      if (polled.status !== 202) throw new Error(`GET /research/${requestId} answered ${polled.status}: ${JSON.stringify(polled.json)}`);
      await new Promise((done) => setTimeout(done, pollIntervalMs));
    }
    throw new Error(`research ${requestId} did not finish within ${timeoutMs / 1000} s`);
  }
}
