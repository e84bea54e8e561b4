import type { Prisma, PrismaClient } from '@sift/persistence';

export type AdminJobKind = 'index.import' | 'index.crawl' | 'index.rechunk' | 'index.resegment' | 'index.embed';
export type AdminJobState = 'queued' | 'running' | 'succeeded' | 'failed';

export interface AdminJobRecord {
  id: string;
  kind: AdminJobKind;
  state: AdminJobState;
  parameters: Record<string, unknown>;
  progress: Record<string, number> | null;
  result: Record<string, unknown> | null;
  error: string | null;
  actor: string;
  runner: string;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  heartbeatAt: Date;
}

const UNFINISHED: AdminJobState[] = ['queued', 'running'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The admin jobs' state: written by the gateway process that runs a job, read by any. */
export class AdminJobRepository {
  constructor(private readonly prisma: PrismaClient) {}

  async create(job: { id: string; kind: AdminJobKind; parameters: Record<string, unknown>; actor: string; runner: string }): Promise<AdminJobRecord> {
    return recordOf(await this.prisma.adminJob.create({ data: { ...job, parameters: job.parameters as Prisma.InputJsonValue } }));
  }

  async find(id: string): Promise<AdminJobRecord | null> {
    if (!UUID.test(id)) return null;
    const row = await this.prisma.adminJob.findUnique({ where: { id } });
    return row ? recordOf(row) : null;
  }

  async list(limit: number): Promise<AdminJobRecord[]> {
    return (await this.prisma.adminJob.findMany({ orderBy: { createdAt: 'desc' }, take: limit })).map(recordOf);
  }

  /**
   * Starts a queued job; false when it is no longer queued (its runner stopping failed it meanwhile): a job failed as
   * lost is never marked running again by the write that was on its way.
   */
  async markRunning(id: string): Promise<boolean> {
    const now = new Date();
    const { count } = await this.prisma.adminJob.updateMany({ where: { id, state: 'queued' }, data: { state: 'running', startedAt: now, heartbeatAt: now } });
    return count === 1;
  }

  async saveProgress(id: string, progress: Record<string, number>): Promise<void> {
    await this.prisma.adminJob.update({ where: { id }, data: { progress, heartbeatAt: new Date() } });
  }

  async finish(id: string, outcome: { result: Record<string, unknown>; progress: Record<string, number> | null } | { error: string }): Promise<void> {
    const finishedAt = new Date();
    await this.prisma.adminJob.update({
      where: { id },
      data:
        'error' in outcome
          ? { state: 'failed', error: outcome.error, finishedAt, heartbeatAt: finishedAt }
          : { state: 'succeeded', result: outcome.result as Prisma.InputJsonValue, ...(outcome.progress ? { progress: outcome.progress } : {}), finishedAt, heartbeatAt: finishedAt },
    });
  }

  /** The runner is alive: its unfinished jobs (running or waiting their turn) are not to be taken for lost. */
  async heartbeat(runner: string): Promise<void> {
    await this.prisma.adminJob.updateMany({ where: { runner, state: { in: UNFINISHED } }, data: { heartbeatAt: new Date() } });
  }

  /**
   * Fails the unfinished jobs whose runner has not been heard of since `silentSince` (its process stopped) and
   * returns their ids. Any replica may do it; the condition makes a second sweep find nothing.
   */
  async failSilent(silentSince: Date, error: string): Promise<string[]> {
    const lost = await this.prisma.adminJob.findMany({ where: { state: { in: UNFINISHED }, heartbeatAt: { lt: silentSince } }, select: { id: true } });
    if (lost.length === 0) return [];
    const ids = lost.map((job) => job.id);
    await this.prisma.adminJob.updateMany({
      where: { id: { in: ids }, state: { in: UNFINISHED }, heartbeatAt: { lt: silentSince } },
      data: { state: 'failed', error, finishedAt: new Date() },
    });
    return ids;
  }

  /** Fails this runner's unfinished jobs at once (the process is shutting down) and returns their ids. */
  async failUnfinishedOf(runner: string, error: string): Promise<string[]> {
    const open = await this.prisma.adminJob.findMany({ where: { runner, state: { in: UNFINISHED } }, select: { id: true } });
    if (open.length === 0) return [];
    await this.prisma.adminJob.updateMany({ where: { runner, state: { in: UNFINISHED } }, data: { state: 'failed', error, finishedAt: new Date() } });
    return open.map((job) => job.id);
  }
}

function recordOf(row: {
  id: string;
  kind: string;
  state: string;
  parameters: unknown;
  progress: unknown;
  result: unknown;
  error: string | null;
  actor: string;
  runner: string;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  heartbeatAt: Date;
}): AdminJobRecord {
  return {
    ...row,
    kind: row.kind as AdminJobKind,
    state: row.state as AdminJobState,
    parameters: row.parameters as Record<string, unknown>,
    progress: row.progress as Record<string, number> | null,
    result: row.result as Record<string, unknown> | null,
  };
}
