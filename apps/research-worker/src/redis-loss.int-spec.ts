import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { resolve } from 'node:path';
import { BillingService, RESEARCH_CEILINGS, RESEARCH_MINIMUM, researchCreditsBound } from '@sift/billing';
import { AccountRepository, ApiKeyRepository, createPrismaClient, CreditLedgerRepository, type PrismaClient, ProjectRepository } from '@sift/persistence';
import { createRedisConnection, JobQueue } from '@sift/queue';
import { QueueName, ResearchJob } from '@sift/queue-contracts';
import { ResearchTaskRepository } from '@sift/research';
import { createTestAccount, createTestKey, eventually, type OwnRedisServer, startOwnRedisServer } from '@sift/testing';
import type { Redis } from 'ioredis';

jest.setTimeout(90_000);

const repositoryRoot = resolve(__dirname, '..', '..', '..');

/** The research worker as `npm start` runs it (apps/research-worker/src/main.ts), once it says it consumes its queue. */
async function startResearchWorker(env: Record<string, string>): Promise<{ child: ChildProcess; output: () => string }> {
  const child = spawn(process.execPath, [resolve(repositoryRoot, 'scripts', 'run-ts.js'), 'apps/research-worker/src/main.ts'], {
    cwd: repositoryRoot,
    env: { ...process.env, RESEARCH_PORT: '0', FETCH_ALLOW_CIDRS: '127.0.0.1/32', SIFT_LOG_LEVEL: 'log', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((started, failed) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (/worker started/.test(output)) started();
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => failed(new Error(`the research worker exited with ${code} before starting:\n${output}`)));
  });
  return { child, output: () => output };
}

// Compose runs Redis without persistence, so a restart loses the queued research jobs. The tasks' rows say what is
// unfinished: the worker's sweep queues them again.
describe('a Redis restart that loses the queued research tasks', () => {
  const queuePrefix = `test-redis-loss-${randomUUID().slice(0, 8)}`;
  let redis: OwnRedisServer;
  let prisma: PrismaClient;
  let connection: Redis;
  let jobQueue: JobQueue;
  let worker: { child: ChildProcess; output: () => string } | undefined;

  beforeAll(async () => {
    redis = await startOwnRedisServer();
    prisma = createPrismaClient(process.env.DATABASE_URL ?? '');
    connection = createRedisConnection(redis.url);
    jobQueue = new JobQueue({ connection, prefix: queuePrefix });
  });

  afterAll(async () => {
    if (worker && worker.child.exitCode === null) {
      const exited = new Promise((done) => worker?.child.once('exit', done));
      worker.child.kill('SIGTERM');
      await exited;
    }
    await jobQueue.close().catch(() => undefined);
    connection.disconnect();
    redis.stop();
    await prisma.$disconnect();
  });

  /** What POST /research does on a gateway of `prefix`: the task's row with its credits held, then its job, under the task's id. */
  async function postTask(accountId: string, apiKeyId: string, input: string, prefix = queuePrefix): Promise<string> {
    const requestId = randomUUID();
    const billing = new BillingService({
      ledger: new CreditLedgerRepository(prisma),
      accounts: new AccountRepository(prisma),
      apiKeys: new ApiKeyRepository(prisma),
      projects: new ProjectRepository(prisma),
    });
    const deadlineMs = 5 * 60_000;
    const reservation = await billing.reserve({
      accountId,
      apiKeyId,
      requestId,
      endpoint: 'research',
      maximumCredits: researchCreditsBound(RESEARCH_CEILINGS.mini),
      minimumCredits: researchCreditsBound(RESEARCH_MINIMUM),
      holdMilliseconds: deadlineMs,
    });
    const createdAt = new Date();
    const task = await new ResearchTaskRepository(prisma, prefix).create({
      requestId,
      accountId,
      apiKeyId,
      projectId: null,
      request: { input, model: 'mini', outputLength: 'short', citationFormat: 'numbered', includeDomains: [], excludeDomains: [] },
      reservation,
      createdAt,
      deadlineAt: new Date(createdAt.getTime() + deadlineMs),
    });
    const queue = prefix === queuePrefix ? jobQueue : new JobQueue({ connection, prefix });
    await queue.enqueue(ResearchJob, { requestId: task.requestId, accountId: task.accountId }, { jobId: task.requestId, deadlineAt: task.deadlineAt.getTime() });
    if (queue !== jobQueue) await queue.close();
    return requestId;
  }

  it('the research worker queues them again from their rows, and each completes, charged once', async () => {
    const account = await createTestAccount(prisma, { plan: 'growth' });
    const key = await createTestKey(prisma, account.id);
    const requestIds: string[] = [];
    for (const input of ['What is a zorblaxian quuxfrob?', 'Who maintains the quuxfrob registry?', 'When was the zorblax standard written?']) {
      requestIds.push(await postTask(account.id, key.id, input));
    }
    expect((await jobQueue.depths([QueueName.Research]))[0].waiting).toBe(3);
    // Another deployment's task in the same database: its job was in its own queue, which is its own to refill.
    const elsewhere = await postTask(account.id, key.id, 'What is a frobnicated zorblax?', `${queuePrefix}-elsewhere`);

    redis.stop();
    redis.start();
    await eventually('the producer reconnecting', async () => (connection.status === 'ready' ? true : undefined), 20_000);
    expect((await jobQueue.depths([QueueName.Research]))[0].waiting).toBe(0);

    worker = await startResearchWorker({ REDIS_URL: redis.url, QUEUE_PREFIX: queuePrefix, RESEARCH_SWEEP_INTERVAL_MS: '500' });
    const rows = await eventually(
      'every task completing',
      async () => {
        const found = await prisma.researchTask.findMany({ where: { requestId: { in: requestIds } } });
        return found.every((row) => row.status === 'completed' && row.credits !== null) ? found : undefined;
      },
      45_000,
    ).catch((error: Error) => {
      throw new Error(`${error.message}\n${worker?.output()}`);
    });

    expect(rows).toHaveLength(3);
    // A few sweeps later, still nobody's here.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await prisma.researchTask.findUniqueOrThrow({ where: { requestId: elsewhere } })).toMatchObject({ status: 'pending', startedAt: null });
    for (const row of rows) {
      const ledger = await prisma.creditLedger.findMany({ where: { requestId: row.requestId } });
      expect(ledger.map((entry) => entry.kind)).toContain('research:search');
      expect(row.credits).toBe(ledger.reduce((sum, entry) => sum + entry.planCredits + entry.paygoCredits, 0));
      expect(await prisma.creditReservation.count({ where: { requestId: row.requestId } })).toBe(0);
    }
  });
});
