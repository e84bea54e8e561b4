import { randomUUID } from 'node:crypto';
import { createPrismaClient, type PrismaClient } from '@sift/persistence';
import { readUntil } from '@sift/testing';
import { operatorTokenActor } from '../admin-actor';
import { AdminAuditRepository } from '../audit/admin-audit.repository';
import { AdminJobRepository } from './admin-job.repository';
import { AdminJobRunner } from './admin-job-runner';

/** A promise and the function that settles it, for a job that runs until the test lets it finish. */
function gate(): { opened: Promise<void>; open(): void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe('AdminJobRunner (real Postgres)', () => {
  let prisma: PrismaClient;
  let jobs: AdminJobRepository;
  let audit: AdminAuditRepository;
  const actor = operatorTokenActor(randomUUID());

  beforeAll(() => {
    prisma = createPrismaClient(process.env.DATABASE_URL as string, 4);
    jobs = new AdminJobRepository(prisma);
    audit = new AdminAuditRepository(prisma);
  });

  afterAll(async () => {
    await prisma.$disconnect();
  });

  it('answers with the queued job at once, shows its counts while it runs, and its report when it ends', async () => {
    const runner = new AdminJobRunner(jobs, audit, { heartbeatMs: 50 });
    const release = gate();
    const job = await runner.submit(actor, 'index.rechunk', {}, async (_id, onProgress) => {
      onProgress({ chunked: 10 });
      await release.opened;
      onProgress({ chunked: 25 });
      return { chunked: 25, seconds: 0.1 };
    });
    expect(job).toMatchObject({ state: 'queued', kind: 'index.rechunk', actor: actor.name });

    const running = await readUntil(() => runner.find(job.id), (found) => found?.progress?.chunked === 10, 10_000, 20);
    expect(running).toMatchObject({ state: 'running', progress: { chunked: 10 }, result: null });
    expect(running?.startedAt).toBeInstanceOf(Date);

    release.open();
    await runner.idle();
    expect(await runner.find(job.id)).toMatchObject({ state: 'succeeded', progress: { chunked: 25 }, result: { chunked: 25 }, error: null });
  });

  it('runs jobs one after another, and a failing job fails with its message without stopping the next', async () => {
    const runner = new AdminJobRunner(jobs, audit, { heartbeatMs: 50 });
    const release = gate();
    const first = await runner.submit(actor, 'index.resegment', {}, async () => {
      await release.opened;
      throw new Error('the database went away');
    });
    const second = await runner.submit(actor, 'index.rechunk', {}, async () => ({ chunked: 0, seconds: 0 }));
    await readUntil(() => runner.find(first.id), (found) => found?.state === 'running', 10_000, 20);
    expect(await runner.find(second.id)).toMatchObject({ state: 'queued' });

    release.open();
    await runner.idle();
    expect(await runner.find(first.id)).toMatchObject({ state: 'failed', error: 'the database went away' });
    expect(await runner.find(second.id)).toMatchObject({ state: 'succeeded' });
  });

  it('never marks running again a job its stopping runner failed while the start was on its way', async () => {
    const job = await jobs.create({ id: randomUUID(), kind: 'index.rechunk', parameters: {}, actor: actor.name, runner: 'stopping-host:1:abcd' });
    await jobs.failUnfinishedOf('stopping-host:1:abcd', 'stopped');
    expect(await jobs.markRunning(job.id)).toBe(false);
    expect(await jobs.find(job.id)).toMatchObject({ state: 'failed' });
  });

  it("fails a job whose process went silent (any replica notices), with its audit event, and this process's own on stop", async () => {
    const lostId = randomUUID();
    await jobs.create({ id: lostId, kind: 'index.import', parameters: { file: 'dump.jsonl' }, actor: actor.name, runner: 'gone-host:1:abcd' });
    await prisma.adminJob.update({ where: { id: lostId }, data: { state: 'running', heartbeatAt: new Date(Date.now() - 120_000) } });
    const eventId = await audit.begin({ channel: 'api', actor: actor.name, action: 'index.import', parameters: {}, jobId: lostId });

    const runner = new AdminJobRunner(jobs, audit, { silentAfterMs: 60_000 });
    expect(await runner.find(lostId)).toMatchObject({ state: 'failed', error: expect.stringMatching(/stopped before it finished/) });
    const [event] = (await audit.list({ limit: 500 })).filter((listed) => listed.id === eventId);
    expect(event).toMatchObject({ outcome: 'failed', error: expect.stringMatching(/stopped before it finished/) });

    const stopping = new AdminJobRunner(jobs, audit);
    const release = gate();
    const unfinished = await stopping.submit(actor, 'index.rechunk', {}, async () => {
      await release.opened;
      return { chunked: 0, seconds: 0 };
    });
    await stopping.stop();
    expect(await jobs.find(unfinished.id)).toMatchObject({ state: 'failed' });
    release.open();
  });
});
