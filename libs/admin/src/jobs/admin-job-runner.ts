import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { AdminActor } from '../admin-actor';
import type { AdminAuditRepository } from '../audit/admin-audit.repository';
import type { IndexProgress, IndexReport } from '../index-admin.service';
import type { AdminJobKind, AdminJobRecord, AdminJobRepository } from './admin-job.repository';

export interface AdminJobRunnerOptions {
  /** How often this process tells the database its jobs are alive; also the most often progress is written. */
  heartbeatMs?: number;
  /** A job whose process has been silent this long is failed as lost (the process stopped or was killed). */
  silentAfterMs?: number;
}

/** The job's work: it reports its counts as it goes and returns its report. */
export type AdminJobWork = (jobId: string, onProgress: (progress: IndexProgress) => void) => Promise<IndexReport>;

const LOST_MESSAGE = 'The gateway running this job stopped before it finished; start it again (import, rechunk, resegment and embed are safe to repeat).';

/**
 * Runs admin jobs in this process, one at a time, with their state in Postgres, so the request that started a job
 * can end at once and any replica can answer how it is going. One at a time: each job takes database connections
 * from the pool the tenant API uses, and index work does not get faster by running side by side.
 */
export class AdminJobRunner {
  /** This process, as the jobs it runs name it; unique per runner, since one process may hold several (tests). */
  readonly runnerId = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly heartbeatMs: number;
  private readonly silentAfterMs: number;
  private queue: Promise<void> = Promise.resolve();
  private unfinished = 0;
  private heartbeat: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly jobs: AdminJobRepository,
    private readonly auditEvents: AdminAuditRepository,
    options: AdminJobRunnerOptions = {},
  ) {
    this.heartbeatMs = options.heartbeatMs ?? 5_000;
    this.silentAfterMs = options.silentAfterMs ?? 60_000;
  }

  /** Records the job as queued and returns it at once; `cleanup` runs after it ends, however it ends. */
  async submit(actor: AdminActor, kind: AdminJobKind, parameters: Record<string, unknown>, work: AdminJobWork, cleanup?: () => Promise<void>): Promise<AdminJobRecord> {
    if (this.stopped) throw new Error('the admin job runner is stopped');
    const job = await this.jobs.create({ id: randomUUID(), kind, parameters, actor: actor.name, runner: this.runnerId });
    this.unfinished += 1;
    this.heartbeat ??= setInterval(() => void this.jobs.heartbeat(this.runnerId).catch(() => undefined), this.heartbeatMs).unref();
    this.queue = this.queue
      .then(() => this.run(job.id, work))
      .finally(async () => {
        this.unfinished -= 1;
        if (this.unfinished === 0 && this.heartbeat) {
          clearInterval(this.heartbeat);
          this.heartbeat = undefined;
        }
        await cleanup?.().catch(() => undefined);
      });
    return job;
  }

  async find(id: string): Promise<AdminJobRecord | null> {
    await this.failSilentJobs();
    return this.jobs.find(id);
  }

  async list(limit: number): Promise<AdminJobRecord[]> {
    await this.failSilentJobs();
    return this.jobs.list(limit);
  }

  /** Resolves when every job submitted so far has ended. */
  idle(): Promise<void> {
    return this.queue;
  }

  /** The process is going away: its unfinished jobs are failed now rather than a minute later by a sweep. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = undefined;
    const failed = await this.jobs.failUnfinishedOf(this.runnerId, LOST_MESSAGE);
    await this.auditEvents.failUnfinishedOfJobs(failed, LOST_MESSAGE);
  }

  private async run(id: string, work: AdminJobWork): Promise<void> {
    if (this.stopped) return;
    let latest: IndexProgress | null = null;
    let lastWriteAt = 0;
    let writing: Promise<void> = Promise.resolve();
    const onProgress = (progress: IndexProgress) => {
      latest = { ...progress };
      if (Date.now() - lastWriteAt < this.heartbeatMs) return;
      lastWriteAt = Date.now();
      const snapshot = latest;
      writing = writing.then(() => this.jobs.saveProgress(id, snapshot)).catch(() => undefined);
    };
    try {
      if (!(await this.jobs.markRunning(id))) return;
      const result = await work(id, onProgress);
      await writing;
      await this.jobs.finish(id, { result, progress: latest });
    } catch (error) {
      await writing;
      await this.jobs.finish(id, { error: (error as Error)?.message ?? String(error) }).catch(() => undefined);
    }
  }

  private async failSilentJobs(): Promise<void> {
    const lost = await this.jobs.failSilent(new Date(Date.now() - this.silentAfterMs), LOST_MESSAGE);
    await this.auditEvents.failUnfinishedOfJobs(lost, LOST_MESSAGE);
  }
}
