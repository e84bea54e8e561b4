import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { BillingService, RESEARCH_CEILINGS, RESEARCH_MINIMUM, researchCreditsBound } from '@sift/billing';
import { OpenAiCompatibleClient } from '@sift/llm';
import {
  AccountRepository,
  ApiKeyRepository,
  createPrismaClient,
  CreditLedgerRepository,
  type PrismaClient,
  ProjectRepository,
  QUERY_ANSWER_MS,
  RequestLogRepository,
} from '@sift/persistence';
import type { ResearchEvent } from '@sift/queue-contracts';
import {
  OVERDUE_REASON,
  type ResearchDependencies,
  ResearchEvents,
  type ResearchOutcome,
  type ResearchRequest,
  ResearchTaskFinisher,
  ResearchTaskRepository,
  runResearch,
} from '@sift/research';
import { type ChatReply, createTestAccount, createTestKey, type LoopbackChatServer, type SeverableProxy, startLoopbackChatServer, startSeverableProxy } from '@sift/testing';
import { Redis } from 'ioredis';
import { type RunResearch, ResearchTaskRunner } from './research-task-runner';

jest.setTimeout(60_000);

const REQUEST: ResearchRequest = {
  input: 'How does git rebase rewrite history?',
  model: 'mini',
  outputLength: 'short',
  citationFormat: 'numbered',
  includeDomains: [],
  excludeDomains: [],
};

/** What a finished pipeline hands the runner: two searches and six pages read. */
const FINISHED: ResearchOutcome = {
  content: '# How does git rebase rewrite history?\n\n“Rebasing replays commits on another base.” [1]\n\n## Sources\n\n[1] git-rebase. https://git.example/rebase',
  sources: [{ title: 'git-rebase', url: 'https://git.example/rebase', favicon: null }],
  mode: 'extractive',
  resolvedModel: 'mini',
  work: { searches: 2, extractions: 6 },
};

/** A page the search already holds in full: the pipeline reads nothing and goes straight to the model. */
const INDEXED_PAGE: Awaited<ReturnType<ResearchDependencies['search']>>[number] = {
  url: 'https://git.example/rebase',
  title: 'git-rebase',
  content: 'Git rebase rewrites history by replaying each commit of a branch on top of another base, creating new commits.',
  contentIsSnippet: false,
  score: 1,
};

// The worker's side of a task, in this process: its runner, finisher, repository and billing on a database connection
// that goes through a proxy the test can sever (an outage of Postgres as the worker sees it), its events on Redis.
describe('the research task runner', () => {
  const queuePrefix = `test-runner-${randomUUID().slice(0, 8)}`;
  let direct: PrismaClient;
  let proxied: PrismaClient;
  let proxy: SeverableProxy;
  let redis: Redis;
  let model: LoopbackChatServer;
  let reply: (request: { stream?: boolean }) => ChatReply = () => ({ text: 'no reply scripted' });
  const logged: { level: string; message: string; at: number }[] = [];
  /** The end of the outage a test began: the next test starts with Postgres back, whatever the last one saw. */
  let outageOver: Promise<void> = Promise.resolve();

  beforeAll(async () => {
    const databaseUrl = process.env.DATABASE_URL ?? '';
    const target = new URL(databaseUrl);
    proxy = await startSeverableProxy(target.hostname, Number(target.port || 5432));
    direct = createPrismaClient(databaseUrl);
    // As the worker's main.ts makes its client: a statement that gets no answer gives up.
    proxied = createPrismaClient(proxy.urlFor(databaseUrl), undefined, { boundedStatements: true });
    redis = new Redis(process.env.REDIS_URL ?? '');
    model = await startLoopbackChatServer((request) => reply(request));
  });

  afterAll(async () => {
    await outageOver;
    await Promise.all([direct.$disconnect(), proxied.$disconnect(), model.close()]);
    redis.disconnect();
    await proxy.close();
  });

  beforeEach(async () => {
    await outageOver;
    logged.length = 0;
  });

  function runnerWith(runResearch: RunResearch, dependencies: ResearchDependencies = { search: async () => [], read: async () => [] }): ResearchTaskRunner {
    const tasks = new ResearchTaskRepository(proxied, queuePrefix);
    const events = new ResearchEvents(redis, queuePrefix);
    const billing = new BillingService({
      ledger: new CreditLedgerRepository(proxied),
      accounts: new AccountRepository(proxied),
      apiKeys: new ApiKeyRepository(proxied),
      projects: new ProjectRepository(proxied),
    });
    const finisher = new ResearchTaskFinisher(tasks, events, billing, new RequestLogRepository(proxied));
    return new ResearchTaskRunner({ tasks, events, finisher, runResearch, dependenciesFor: () => dependencies, log: (level, message) => void logged.push({ level, message, at: Date.now() }) });
  }

  /** A task as POST /research leaves it: its row, pending, and the model's ceiling held for it until its deadline. */
  async function newTask(deadlineInMs: number) {
    const account = await createTestAccount(direct, { plan: 'growth' });
    const key = await createTestKey(direct, account.id);
    const requestId = randomUUID();
    const billing = new BillingService({
      ledger: new CreditLedgerRepository(direct),
      accounts: new AccountRepository(direct),
      apiKeys: new ApiKeyRepository(direct),
      projects: new ProjectRepository(direct),
    });
    const reservation = await billing.reserve({
      accountId: account.id,
      apiKeyId: key.id,
      requestId,
      endpoint: 'research',
      maximumCredits: researchCreditsBound(RESEARCH_CEILINGS.mini),
      minimumCredits: researchCreditsBound(RESEARCH_MINIMUM),
      holdMilliseconds: deadlineInMs + 60_000,
    });
    expect(reservation.held).toBe(true);
    const createdAt = new Date();
    const task = await new ResearchTaskRepository(direct, queuePrefix).create({
      requestId,
      accountId: account.id,
      apiKeyId: key.id,
      projectId: null,
      request: REQUEST,
      reservation,
      createdAt,
      deadlineAt: new Date(createdAt.getTime() + deadlineInMs),
    });
    return { payload: { requestId, accountId: account.id }, context: { deadlineAt: task.deadlineAt.getTime() }, deadlineAt: task.deadlineAt.getTime() };
  }

  async function ledgerOf(requestId: string) {
    const rows = await direct.creditLedger.findMany({ where: { requestId }, orderBy: { kind: 'asc' } });
    const held = await direct.creditReservation.count({ where: { requestId } });
    return { kinds: rows.map((row) => row.kind), credits: rows.reduce((sum, row) => sum + row.planCredits + row.paygoCredits, 0), held };
  }

  async function eventsOf(requestId: string): Promise<ResearchEvent[]> {
    const entries = await redis.xrange(`${queuePrefix}:research:${requestId}:events`, '-', '+');
    return entries.map(([, fields]) => JSON.parse(fields[1]) as ResearchEvent);
  }

  /** The pipeline as given, then Postgres gone as it returns, back `outageMs` later. */
  function outageAfter(pipeline: () => Promise<ResearchOutcome>, outageMs: number): RunResearch {
    return async () => {
      try {
        return await pipeline();
      } finally {
        proxy.sever();
        outageOver = sleep(outageMs).then(() => proxy.restore());
      }
    };
  }

  describe('a Postgres outage as the task ends', () => {
    // The work is done when Postgres goes away: the report must wait for it, not be thrown away with its credits held.
    it('stores the finished report and charges it once when Postgres is back; the job does not end before', async () => {
      const task = await newTask(5 * 60_000);
      const result = await runnerWith(outageAfter(async () => FINISHED, 4_000)).run(task.payload, task.context);

      expect(result).toEqual({ status: 'completed' });
      const row = await direct.researchTask.findUniqueOrThrow({ where: { requestId: task.payload.requestId } });
      expect(row).toMatchObject({ status: 'completed', content: FINISHED.content, sources: FINISHED.sources, mode: 'extractive', error: null });
      const ledger = await ledgerOf(task.payload.requestId);
      expect(ledger.kinds).toEqual(['research:extract_basic', 'research:search']);
      expect(ledger.held).toBe(0);
      expect(row.credits).toBe(ledger.credits);
      expect((await eventsOf(task.payload.requestId)).filter((event) => event.type === 'done')).toHaveLength(1);
      // It was the outage the runner waited through, not a store that never failed.
      expect(logged.some((line) => line.level === 'error' && /could not store the report/.test(line.message))).toBe(true);
    });

    // A server that stops answering mid-write (paused, partitioned away) gives no error to try again on: the statement
    // must give up by itself, or the write waits as long as the connection lives.
    it('stores the report when Postgres stops answering as it is written: the write gives up and is tried again', async () => {
      const task = await newTask(5 * 60_000);
      let restoredAt = Number.POSITIVE_INFINITY;
      const frozenAtTheEnd: RunResearch = async () => {
        proxy.freeze();
        outageOver = sleep(QUERY_ANSWER_MS + 5_000).then(() => {
          restoredAt = Date.now();
          proxy.restore();
        });
        return FINISHED;
      };

      expect(await runnerWith(frozenAtTheEnd).run(task.payload, task.context)).toEqual({ status: 'completed' });
      const row = await direct.researchTask.findUniqueOrThrow({ where: { requestId: task.payload.requestId } });
      expect(row).toMatchObject({ status: 'completed', content: FINISHED.content });
      expect((await ledgerOf(task.payload.requestId)).held).toBe(0);
      // The write gave up while Postgres was still silent, not when the connection was dropped at its return.
      const retries = logged.filter((line) => /could not store the report/.test(line.message));
      expect(retries.length).toBeGreaterThan(0);
      expect(retries[0].at).toBeLessThan(restoredAt);
    });

    it('fails a task whose pipeline broke, once Postgres is back, and releases its credits', async () => {
      const task = await newTask(5 * 60_000);
      const broken = outageAfter(async () => {
        throw new Error('the search providers all failed');
      }, 4_000);

      expect(await runnerWith(broken).run(task.payload, task.context)).toEqual({ status: 'failed' });
      const row = await direct.researchTask.findUniqueOrThrow({ where: { requestId: task.payload.requestId } });
      expect(row).toMatchObject({ status: 'failed', error: 'Research failed: the search providers all failed', credits: null });
      expect(await ledgerOf(task.payload.requestId)).toEqual({ kinds: [], credits: 0, held: 0 });
      expect((await eventsOf(task.payload.requestId)).at(-1)).toEqual({ type: 'error', error: 'Research failed: the search providers all failed' });
    });
  });

  // A model that never answers or never stops must not hold the worker's slot past the task's deadline, nor add events
  // to a stream that has already ended with the task's failure.
  describe('a model that does not end', () => {
    const llmPipeline = () => {
      const llm = new OpenAiCompatibleClient({ baseUrl: model.baseUrl, model: 'test-model', policy: { allowCidrs: [] } });
      const dependencies: ResearchDependencies = { search: async () => [INDEXED_PAGE], read: async () => [], llm };
      return { dependencies };
    };

    async function expectFailedAtDeadline(task: Awaited<ReturnType<typeof newTask>>, endedAt: number): Promise<ResearchEvent[]> {
      // The slot is free (the job's handler returned) within two seconds of the deadline.
      expect(endedAt - task.deadlineAt).toBeLessThan(2_000);
      const row = await direct.researchTask.findUniqueOrThrow({ where: { requestId: task.payload.requestId } });
      expect(row).toMatchObject({ status: 'failed', error: OVERDUE_REASON });
      expect(await ledgerOf(task.payload.requestId)).toEqual({ kinds: [], credits: 0, held: 0 });
      const events = await eventsOf(task.payload.requestId);
      expect(events.at(-1)).toEqual({ type: 'error', error: OVERDUE_REASON });
      // Nothing is appended after the failure, however long the model would go on.
      await sleep(1_500);
      expect(await eventsOf(task.payload.requestId)).toEqual(events);
      return events;
    }

    /** A task that wrapped up before its deadline: stored partial from the page it had found, charged for its search. */
    async function expectPartialBeforeDeadline(task: Awaited<ReturnType<typeof newTask>>, endedAt: number): Promise<ResearchEvent[]> {
      // The slot is free (the job's handler returned) before the deadline: the task wrapped up a second before it.
      expect(endedAt).toBeLessThan(task.deadlineAt);
      const row = await direct.researchTask.findUniqueOrThrow({ where: { requestId: task.payload.requestId } });
      expect(row).toMatchObject({ status: 'completed', mode: 'extractive', sources: [{ title: INDEXED_PAGE.title, url: INDEXED_PAGE.url, favicon: null }], work: { searches: 1, extractions: 0 } });
      expect(row.error).toMatch(/^The research task reached its deadline before it finished; the report is written from the 1 sources found by then\.$/);
      expect(String(row.content)).toContain('replaying each commit of a branch');
      // Charged as a completed task for the work it did: one search, at the basic search rate.
      const ledger = await ledgerOf(task.payload.requestId);
      expect(ledger).toMatchObject({ credits: 1, held: 0 });
      expect(ledger.kinds).toContain('research:search');
      expect(row.credits).toBe(1);
      const events = await eventsOf(task.payload.requestId);
      expect(events.at(-1)).toEqual({ type: 'done' });
      // Nothing is appended after the end, however long the model would go on.
      await sleep(1_500);
      expect(await eventsOf(task.payload.requestId)).toEqual(events);
      return events;
    }

    it('an endless report stream: the task wraps up before its deadline with a partial report from its source, charged for its work', async () => {
      reply = (request) => (request.stream ? { endless: 'and it goes on ', intervalMs: 20 } : { text: '{"sections": [{"title": "Rebase", "queries": ["git rebase"]}]}' });
      // Wrap-up comes a quarter of the time before the deadline: planning and the search must be done by then, which on a
      // machine busy with the whole suite can take more than the three seconds a 4 s task leaves.
      const task = await newTask(8_000);
      const { dependencies } = llmPipeline();

      expect(await runnerWith(runResearch, dependencies).run(task.payload, task.context)).toEqual({ status: 'completed' });
      const events = await expectPartialBeforeDeadline(task, Date.now());
      // The model was writing when the time ran out.
      expect(events.filter((event) => event.type === 'content').length).toBeGreaterThan(10);
    });

    it('a model that never answers: still planning when the time runs out, the task has nothing to give and fails at its deadline', async () => {
      reply = () => ({ silent: true });
      const task = await newTask(4_000);
      const { dependencies } = llmPipeline();

      expect(await runnerWith(runResearch, dependencies).run(task.payload, task.context)).toEqual({ status: 'failed' });
      await expectFailedAtDeadline(task, Date.now());
    });

    it('a task that gathered nothing by then fails at its deadline and costs nothing', async () => {
      const task = await newTask(4_000);
      // A search provider that answers only when its time is up, with nothing.
      const hanging: ResearchDependencies = { search: (_query, options) => sleep(options.deadlineMs).then(() => []), read: async () => [] };

      expect(await runnerWith(runResearch, hanging).run(task.payload, task.context)).toEqual({ status: 'failed' });
      await expectFailedAtDeadline(task, Date.now());
    });
  });
});
