/*
 * The one-machine rehearsal of horizontal scaling (issue 13): two gateway instances, two extractor, two crawler and
 * two research workers, one Postgres, one Redis, one queue prefix, and a mixed workload sent alternately through
 * both gateways by several accounts at once. What it proves, each in its own test below:
 *
 * - every request is answered (no 5xx), and no job is lost: every URL of an extract is in its results or its
 *   failed_results, every crawl, map and search answers, every research task completes;
 * - a research task started on one gateway is polled and answered on the other: task state lives in Postgres and
 *   Redis, not in the memory of the instance that took the POST;
 * - no job is run twice: per queue, the completions the workers count (their /metrics) equal the jobs BullMQ
 *   holds as completed (plus those a caller that stopped waiting removed after they completed), and no job was
 *   started twice (no stall re-delivery);
 * - usage is exact: each request has exactly the ledger rows of its kinds (no duplicate settle, none missing),
 *   no reservation is left held, and each key's /usage (asked on either gateway) equals the sum of the credits its
 *   responses reported and the ledger;
 * - both gateways and both workers of each kind took part.
 *
 * Gateway A runs in this process (the harness every int spec uses, and the test's Prisma client); gateway B is a
 * real process started like `npm start`. Two Nest apps in one process would share module state (prom-client's
 * global registry, the caches of the module scope), which would hide precisely the cross-instance state this test
 * is about.
 */
import { readdirSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { QueueName } from '@sift/queue-contracts';
import type { FixtureServer } from '@sift/safe-fetch';
import { callGateway, createTestAccount, createTestKey, eventually, type GatewayAnswer, GIT_DOCS_SITE_ROOT, GitDocsSite, startGitDocsSite, startLoopbackSearxng } from '@sift/testing';
import { startTestGateway, TestGateway } from '../testing/gateway-harness';
import { GatewayProcess, startGatewayProcess } from '../testing/gateway-process';
import { startWorkerProcess, WorkerProcess } from '../testing/worker-process';

jest.setTimeout(120_000);

type WorkerApp = 'extractor-worker' | 'crawler-worker' | 'research-worker';
type Endpoint = 'search' | 'extract' | 'crawl' | 'map' | 'research';

interface Usage {
  usage?: { credits: number };
}

interface Answered {
  endpoint: Endpoint;
  /** The gateway that answered the request (for research: that took the POST). */
  gateway: number;
  key: number;
  status: number;
  requestId: string;
  credits: number;
}

interface ExtractCheck {
  requested: string[];
  succeeded: string[];
  failed: Array<{ url: string; error: string }>;
}

interface ResearchPoll {
  gateway: number;
  status: number;
}

/** The ledger kinds one request of each endpoint settles, one row each even at 0 credits (the retry marker). */
const LEDGER_KINDS: Record<Endpoint, string[]> = {
  search: ['search'],
  extract: ['extract:extract_basic'],
  crawl: ['crawl:extract_basic', 'crawl:map'],
  map: ['map:map'],
  research: ['research:extract_basic', 'research:search'],
};

const QUEUE_OF: Record<WorkerApp, QueueName> = { 'extractor-worker': QueueName.Extract, 'crawler-worker': QueueName.Crawl, 'research-worker': QueueName.Research };

/**
 * Low concurrency per worker, so a burst cannot all land on the first worker that asks: each worker of a kind must
 * take part, as each pod of a scaled Deployment would. One parsing thread each keeps eight processes within 2 cores.
 */
const WORKER_SETTINGS: Record<WorkerApp, Record<string, string>> = {
  'extractor-worker': { EXTRACT_CONCURRENCY: '2', EXTRACT_PARSE_THREADS: '1' },
  'crawler-worker': { CRAWL_CONCURRENCY: '1', CRAWL_EXTRACTION_THREADS: '1' },
  'research-worker': { RESEARCH_CONCURRENCY: '1' },
};

const ACCOUNTS = 3;
/** Account 0 has two keys: its /usage must split per key and add up per account. */
const KEY_ACCOUNTS = [0, 0, 1, 2];
const URLS_PER_EXTRACT = 3;
/** Seconds an extract may take: eight processes share 2 cores, and a page timing out would read as a failure here. */
const EXTRACT_TIMEOUT = 30;
/** Each key sends its mix this many times at once, so one account's requests overlap on both gateways. */
const ROUNDS = 2;

interface StartedWorker {
  app: WorkerApp;
  process: WorkerProcess;
  metricsUrl: string;
}

/** The sum of one Prometheus counter's samples whose labels include `queue="<queue>"`. */
function counterTotal(metricsText: string, counter: string, queue: string): number {
  return metricsText
    .split('\n')
    .filter((line) => line.startsWith(`${counter}{`) && line.includes(`queue="${queue}"`))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}

/** How many of the queue's jobs were removed from each state, from BullMQ's event stream ("removed", with "prev"). */
async function removedJobsByPreviousState(connection: Redis, queue: Queue): Promise<Map<string, number>> {
  const entries = await connection.xrange(`${queue.qualifiedName}:events`, '-', '+');
  const removed = new Map<string, number>();
  for (const [, fields] of entries) {
    const event = new Map<string, string>();
    for (let index = 0; index + 1 < fields.length; index += 2) event.set(fields[index], fields[index + 1]);
    if (event.get('event') !== 'removed') continue;
    const previous = event.get('prev') ?? 'unknown';
    removed.set(previous, (removed.get(previous) ?? 0) + 1);
  }
  return removed;
}

describe('horizontal scaling rehearsal: two gateways, two workers of each kind, one Postgres and Redis', () => {
  const prefix = `test-scale-${randomUUID().slice(0, 8)}`;
  const marker = `scale${randomUUID().slice(0, 6)}`;
  let site: GitDocsSite;
  let searxng: FixtureServer;
  let gatewayA: TestGateway;
  let gatewayB: GatewayProcess;
  let baseUrls: string[];
  const workers: StartedWorker[] = [];
  const keys: Array<{ apiKey: string; id: string; accountId: string }> = [];
  const answered: Answered[] = [];
  const extracts: ExtractCheck[] = [];
  const researchPolls = new Map<string, ResearchPoll[]>();

  async function startWorker(app: WorkerApp, env: Record<string, string>): Promise<StartedWorker> {
    const started = await startWorkerProcess(app, { QUEUE_PREFIX: prefix, ...WORKER_SETTINGS[app], ...env });
    return { app, process: started, metricsUrl: started.healthUrl };
  }

  beforeAll(async () => {
    site = await startGitDocsSite();
    // SearXNG's JSON wire format, answering every query with pages of the Git documentation site.
    searxng = await startLoopbackSearxng([
      { url: `${site.origin}/git-merge.html`, title: 'git-merge(1)', content: 'Join two or more development histories together' },
      { url: `${site.origin}/git-rebase.html`, title: 'git-rebase(1)', content: 'Reapply commits on top of another base tip' },
      { url: `${site.origin}/git-cherry-pick.html`, title: 'git-cherry-pick(1)', content: 'Apply the changes introduced by some existing commits' },
    ]);
    const shared = { QUEUE_PREFIX: prefix, FETCH_ALLOW_CIDRS: '127.0.0.1/32', SEARXNG_URL: searxng.url };
    // Polls of several tasks from one key must not run into the per-key rate limit (shared by both gateways in Redis).
    const gatewayEnv = { ...shared, RATE_LIMIT_DEV_PER_MINUTE: '1000' };
    const apps: WorkerApp[] = ['extractor-worker', 'extractor-worker', 'crawler-worker', 'crawler-worker', 'research-worker', 'research-worker'];
    // Every start is awaited and kept, so afterAll stops what did start when another start failed.
    const starts = await Promise.allSettled([
      ...apps.map((app) => startWorker(app, shared).then((worker) => workers.push(worker))),
      startTestGateway(gatewayEnv).then((gateway) => (gatewayA = gateway)),
      startGatewayProcess(gatewayEnv).then((gateway) => (gatewayB = gateway)),
    ]);
    const failedStart = starts.find((start) => start.status === 'rejected');
    if (failedStart) throw failedStart.reason;
    baseUrls = [gatewayA.baseUrl, gatewayB.baseUrl];

    const accounts = await Promise.all(Array.from({ length: ACCOUNTS }, () => createTestAccount(gatewayA.prisma, { plan: 'growth', name: 'scale' })));
    for (const accountIndex of KEY_ACCOUNTS) {
      const accountId = accounts[accountIndex].id;
      keys.push({ ...(await createTestKey(gatewayA.prisma, accountId)), accountId });
    }

    await runMixedWorkload();
  }, 110_000);

  afterAll(async () => {
    await Promise.all([gatewayA?.close(), gatewayB?.stop(), ...workers.map((worker) => worker.process.stop()), site?.close(), searxng?.close()]);
  });

  /** Distinct pages of the site per extract (no request is served from another's cache), plus one missing page. */
  function extractUrls(round: number): string[] {
    const pages = readdirSync(GIT_DOCS_SITE_ROOT).filter((name) => /^git-[a-z-]+\.html$/.test(name)).sort();
    const mine = pages.slice(round * URLS_PER_EXTRACT, (round + 1) * URLS_PER_EXTRACT).map((name) => `${site.origin}/${name}`);
    return [...mine, `${site.origin}/missing-${marker}-${round}.html`];
  }

  function record<Body extends Usage & { request_id: string }>(endpoint: Endpoint, gateway: number, key: number, answer: GatewayAnswer<Body>): GatewayAnswer<Body> {
    answered.push({ endpoint, gateway, key, status: answer.status, requestId: answer.body.request_id, credits: answer.body.usage?.credits ?? Number.NaN });
    return answer;
  }

  async function post<Body extends Usage & { request_id: string }>(endpoint: Endpoint, gateway: number, key: number, body: Record<string, unknown>) {
    const answer = await callGateway<Body>(baseUrls[gateway], 'POST', `/${endpoint}`, { apiKey: keys[key].apiKey, body: { ...body, include_usage: true } });
    return record(endpoint, gateway, key, answer);
  }

  async function extract(gateway: number, key: number, round: number): Promise<void> {
    const urls = extractUrls(round);
    const answer = await post<Usage & { request_id: string; results: Array<{ url: string }>; failed_results: ExtractCheck['failed'] }>('extract', gateway, key, { urls, timeout: EXTRACT_TIMEOUT });
    extracts.push({ requested: urls, succeeded: answer.body.results?.map((result) => result.url) ?? [], failed: answer.body.failed_results ?? [] });
  }

  /** POST on one gateway; every poll, and the final read with the usage, on the other or alternating. */
  async function research(gateway: number, key: number): Promise<void> {
    const apiKey = keys[key].apiKey;
    const started = await callGateway<{ request_id: string; status: string }>(baseUrls[gateway], 'POST', '/research', {
      apiKey,
      body: { input: `How do I join two development histories with git merge? (${marker})`, model: 'mini' },
    });
    const requestId = started.body.request_id;
    const polls: ResearchPoll[] = [];
    researchPolls.set(requestId, polls);
    let pollCount = 0;
    const done = await eventually(
      `research task ${requestId}`,
      async () => {
        const pollGateway = pollCount++ % 2 === 0 ? 1 - gateway : gateway;
        const answer = await callGateway<Usage & { request_id: string; status: string }>(baseUrls[pollGateway], 'GET', `/research/${requestId}?include_usage=true`, { apiKey });
        polls.push({ gateway: pollGateway, status: answer.status });
        if (answer.status !== 202) return { ...answer, gateway: pollGateway };
        return undefined;
      },
      90_000,
    );
    answered.push({ endpoint: 'research', gateway, key, status: started.status, requestId, credits: Number.NaN });
    record('research', done.gateway, key, done);
    expect(done.body.status).toBe('completed');
  }

  /** Each key sends its mix ROUNDS times, all at once; consecutive requests of a key alternate between the gateways. */
  async function runMixedWorkload(): Promise<void> {
    const requests = keys.flatMap((_key, key) =>
      Array.from({ length: ROUNDS }, (_round, round) => {
        const gateway = (step: number) => (key + round + step) % 2;
        const extractRound = (key * ROUNDS + round) * 2;
        return [
          () => research(gateway(0), key),
          () => post('search', gateway(1), key, { query: `git merge development histories ${marker}` }),
          () => extract(gateway(2), key, extractRound),
          () => post('crawl', gateway(3), key, { url: `${site.origin}/`, max_depth: 1, limit: 3 }),
          () => extract(gateway(4), key, extractRound + 1),
          () => post('map', gateway(5), key, { url: `${site.origin}/`, max_depth: 1, limit: 10 }),
          () => post('search', gateway(6), key, { query: `rebase commits base tip ${marker}` }),
        ];
      }).flat(),
    );
    await Promise.all(requests.map((request) => request()));
  }

  it('answers every request with 200 and loses no job', () => {
    expect(answered.filter((answer) => answer.status !== 200)).toEqual([]);
    const endpoints = answered.map((answer) => answer.endpoint);
    // Research counts twice: the POST and the final read.
    expect(endpoints.length).toBe(keys.length * ROUNDS * 8);
    for (const { requested, succeeded, failed } of extracts) {
      expect([...succeeded, ...failed.map((result) => result.url)].sort()).toEqual([...requested].sort());
      // Only the missing page fails; a page of the site failing under load would be a lost job in disguise.
      expect(failed.filter((result) => result.url !== requested[URLS_PER_EXTRACT])).toEqual([]);
      expect(succeeded).toHaveLength(URLS_PER_EXTRACT);
    }
  });

  it('answers a research poll on either gateway, whichever took the POST', () => {
    for (const [requestId, polls] of researchPolls) {
      const posted = answered.find((answer) => answer.requestId === requestId)?.gateway;
      const answeredByOther = polls.filter((poll) => poll.gateway !== posted);
      expect(answeredByOther.length).toBeGreaterThan(0);
      expect(polls.filter((poll) => poll.status !== 200 && poll.status !== 202)).toEqual([]);
    }
  });

  it('runs each job once: the workers count as many completions as BullMQ holds completed jobs, none started twice', async () => {
    const connection = new Redis(process.env.REDIS_URL ?? '', { maxRetriesPerRequest: null });
    const queues = Object.values(QueueName).map((name) => new Queue(name, { connection, prefix }));
    try {
      // A search's page fetches may go on after its answer (into the store): every job must end, but not by then.
      for (let waited = 0; waited < 60; waited += 1) {
        const counts = await Promise.all(queues.map((queue) => queue.getJobCounts('active', 'wait', 'delayed', 'prioritized', 'waiting-children')));
        if (counts.every((count) => Object.values(count).every((value) => value === 0))) break;
        await new Promise((done) => setTimeout(done, 500));
      }
      for (const queue of queues) {
        const [completed, failed, unfinished] = await Promise.all([
          queue.getJobs(['completed']),
          queue.getJobs(['failed']),
          queue.getJobCounts('active', 'wait', 'delayed', 'prioritized', 'waiting-children'),
        ]);
        expect(Object.values(unfinished).reduce((sum, count) => sum + count, 0)).toBe(0);
        expect(completed.length).toBeGreaterThan(0);
        expect([...completed, ...failed].filter((job) => job.attemptsStarted !== 1).map((job) => job.id)).toEqual([]);
        const counted = await Promise.all(
          workers
            .filter((worker) => QUEUE_OF[worker.app] === queue.name)
            .map(async (worker) => (await callGateway<string>(worker.metricsUrl, 'GET', '/metrics')).body),
        );
        // A caller that stopped waiting (a search's raw-content fetch has a short deadline) removes its job; a job that
        // finished just before that removal was run once and counted, and BullMQ's event stream says so.
        const removedAfter = await removedJobsByPreviousState(connection, queue);
        expect({ queue: queue.name, completed: counted.reduce((sum, text) => sum + counterTotal(text, 'sift_jobs_completed_total', queue.name), 0) }).toEqual({
          queue: queue.name,
          completed: completed.length + (removedAfter.get('completed') ?? 0),
        });
        expect({ queue: queue.name, failed: counted.reduce((sum, text) => sum + counterTotal(text, 'sift_jobs_failed_total', queue.name), 0) }).toEqual({
          queue: queue.name,
          failed: failed.length + (removedAfter.get('failed') ?? 0),
        });
      }
    } finally {
      await Promise.all(queues.map((queue) => queue.close()));
      await connection.quit();
    }
  });

  it('charges exactly: one ledger row per kind per request, nothing held, /usage on either gateway equals the reported credits', async () => {
    const accountIds = [...new Set(keys.map((key) => key.accountId))];
    const rows = await gatewayA.prisma.creditLedger.findMany({ where: { accountId: { in: accountIds } }, select: { requestId: true, kind: true, apiKeyId: true, planCredits: true, paygoCredits: true } });
    const settled = answered.filter((answer) => !Number.isNaN(answer.credits));
    expect(new Set(rows.map((row) => row.requestId))).toEqual(new Set(settled.map((answer) => answer.requestId)));
    for (const answer of settled) {
      const own = rows.filter((row) => row.requestId === answer.requestId);
      expect({ requestId: answer.requestId, kinds: own.map((row) => row.kind).sort() }).toEqual({ requestId: answer.requestId, kinds: LEDGER_KINDS[answer.endpoint] });
      expect(own.reduce((sum, row) => sum + row.planCredits + row.paygoCredits, 0)).toBe(answer.credits);
    }
    expect(await gatewayA.prisma.creditReservation.count({ where: { accountId: { in: accountIds } } })).toBe(0);

    for (const [index, key] of keys.entries()) {
      const reported = settled.filter((answer) => answer.key === index).reduce((sum, answer) => sum + answer.credits, 0);
      const accountReported = settled.filter((answer) => keys[answer.key].accountId === key.accountId).reduce((sum, answer) => sum + answer.credits, 0);
      for (const baseUrl of baseUrls) {
        const usage = await callGateway<{ key: { usage: number }; account: { plan_usage: number; paygo_usage: number } }>(baseUrl, 'GET', '/usage', { apiKey: key.apiKey });
        expect(usage.status).toBe(200);
        expect(usage.body.key.usage).toBe(reported);
        expect(usage.body.account.plan_usage + usage.body.account.paygo_usage).toBe(accountReported);
      }
    }
  });

  it('spread the work over both gateways and both workers of each kind', async () => {
    for (const gateway of [0, 1]) expect(answered.filter((answer) => answer.gateway === gateway).length).toBeGreaterThan(keys.length * ROUNDS);
    for (const worker of workers) {
      const metrics = (await callGateway<string>(worker.metricsUrl, 'GET', '/metrics')).body;
      expect({ worker: worker.app, completed: counterTotal(metrics, 'sift_jobs_completed_total', QUEUE_OF[worker.app]) > 0 }).toEqual({ worker: worker.app, completed: true });
    }
  });
});
