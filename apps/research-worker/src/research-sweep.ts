import type { JobQueue, WorkerLog } from '@sift/queue';
import { queueResearchTask, type ResearchTaskFinisher, type ResearchTaskRepository } from '@sift/research';

/** Tasks queued again per sweep at most: a backlog after a Redis loss is worked through over a few sweeps. */
const REQUEUED_PER_SWEEP = 500;

export interface ResearchSweepOptions {
  tasks: ResearchTaskRepository;
  finisher: ResearchTaskFinisher;
  jobQueue: JobQueue;
  /** How old an unfinished task must be before it is queued again: its POST queues it first, within milliseconds. */
  requeueAfterMs: number;
  log: WorkerLog;
}

/**
 * What the research worker does every RESEARCH_SWEEP_INTERVAL_MS, from the tasks' rows (Postgres holds the state,
 * Redis only the jobs): no task stays unfinished past its deadline, even one no worker ever picked up; and no task
 * waits for a job that is gone (Redis restarted without persistence, or was flushed): its job is queued again.
 */
export class ResearchSweep {
  private sweeping = false;

  constructor(private readonly options: ResearchSweepOptions) {}

  async sweep(): Promise<void> {
    // A sweep slowed by an outage is not overtaken by the next one.
    if (this.sweeping) return;
    this.sweeping = true;
    try {
      await this.failOverdue();
      await this.requeue();
    } finally {
      this.sweeping = false;
    }
  }

  private async failOverdue(): Promise<void> {
    const { finisher, log } = this.options;
    try {
      const failed = await finisher.failOverdue();
      if (failed.length > 0) log('info', 'failed research tasks past their deadline', { requestIds: failed.map((task) => task.requestId) });
    } catch (error) {
      log('error', 'deadline sweep failed', { error: (error as Error).message });
    }
  }

  private async requeue(): Promise<void> {
    const { tasks, jobQueue, requeueAfterMs, log } = this.options;
    try {
      const unfinished = await tasks.findUnfinished(new Date(Date.now() - requeueAfterMs), REQUEUED_PER_SWEEP);
      for (const task of unfinished) await queueResearchTask(jobQueue, task);
    } catch (error) {
      log('error', 'queueing unfinished research tasks again failed', { error: (error as Error).message });
    }
  }
}
