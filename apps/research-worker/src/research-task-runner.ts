import { setTimeout as sleep } from 'node:timers/promises';
import { affordableResearch, RESEARCH_CEILINGS, researchCreditsBound } from '@sift/billing';
import type { JobContext, WorkerLog } from '@sift/queue';
import type { ResearchPayload, ResearchResult } from '@sift/queue-contracts';
import {
  OVERDUE_REASON,
  type ResearchBudget,
  type ResearchCheckpoint,
  type ResearchDependencies,
  type ResearchEvents,
  type ResearchOutcome,
  type ResearchProgress,
  type ResearchRequest,
  type ResearchTask,
  type ResearchTaskFinisher,
  type ResearchTaskRepository,
} from '@sift/research';

/** The pipeline (libs/research's runResearch), injected so the runner's bookkeeping is independent of it. */
export type RunResearch = (
  request: ResearchRequest,
  budget: ResearchBudget,
  dependencies: ResearchDependencies,
  progress: ResearchProgress,
  saved?: ResearchCheckpoint,
) => Promise<ResearchOutcome>;

export interface ResearchTaskRunnerOptions {
  tasks: ResearchTaskRepository;
  events: ResearchEvents;
  finisher: ResearchTaskFinisher;
  runResearch: RunResearch;
  dependenciesFor: (task: ResearchTask) => ResearchDependencies;
  log: WorkerLog;
}

/** The first wait before a step the database refused is tried again; each failure doubles it, up to the longest. */
const FIRST_RETRY_DELAY_MS = 250;
const LONGEST_RETRY_DELAY_MS = 5_000;
/**
 * How long past the task's deadline its end (report or failure) is still tried: the work is done and only the
 * database was away, so a report is worth storing late rather than throwing away; after that the sweep fails it.
 */
const STORE_PAST_DEADLINE_MS = 10 * 60_000;
/**
 * How long before its deadline a task stops its search, reading or writing to write a partial report from what it has
 * gathered (without a model, a fraction of a second) and store it: at most a quarter of the task's whole time. After
 * the deadline the sweep or a GET fails the task, and a report stored then is refused.
 */
const WRAP_UP_MS = 5_000;

/** When the task must stop working and write what it has: WRAP_UP_MS before its deadline, or a quarter of its time. */
function wrapUpAtOf(task: ResearchTask): number {
  const deadline = task.deadlineAt.getTime();
  return deadline - Math.min(WRAP_UP_MS, Math.max(0, (deadline - task.createdAt.getTime()) / 4));
}

/** The work a task's grant pays for, at most its model's ceiling. */
function budgetOf(task: ResearchTask): ResearchBudget {
  const credits = task.reservation?.credits ?? researchCreditsBound(RESEARCH_CEILINGS[task.request.model]);
  return affordableResearch(task.request.model, credits);
}

/**
 * One research job: the task's row says what to do and where it stands. A finished task is left alone (a job
 * delivered again after a stall), a task with a checkpoint resumes from it, and whatever happens the task ends
 * completed (stored, then charged) or failed (its credits released), each announced on its stream. The job does not
 * end while that end is not stored: a database outage delays it, never loses it (see persistently).
 */
export class ResearchTaskRunner {
  /** The tasks this process works on, by request id: a second job for one of them (queued again after a Redis loss) waits for it. */
  private readonly running = new Map<string, Promise<ResearchResult>>();

  constructor(private readonly options: ResearchTaskRunnerOptions) {}

  async run(payload: ResearchPayload, context: Pick<JobContext, 'deadlineAt'> = {}): Promise<ResearchResult> {
    const already = this.running.get(payload.requestId);
    if (already) return already;
    const run = this.start(payload, context);
    this.running.set(payload.requestId, run);
    try {
      return await run;
    } finally {
      this.running.delete(payload.requestId);
    }
  }

  private async start(payload: ResearchPayload, context: Pick<JobContext, 'deadlineAt'>): Promise<ResearchResult> {
    const { tasks, finisher, log } = this.options;
    // Until the job's deadline (the task's): a task whose row cannot be read yet is not a task to give up on.
    const task = await this.persistently('read the task', payload.requestId, context.deadlineAt ?? Date.now(), () => tasks.findForAccount(payload.accountId, payload.requestId));
    if (!task) {
      log('error', 'research job names no task of its account', { requestId: payload.requestId });
      return { status: 'failed' };
    }
    if (task.status === 'completed') {
      // Stored but not charged: the worker died between the two. The settle is idempotent per task.
      if (task.credits === null) await this.persistently('charge the task', task.requestId, this.storeDeadlineOf(task), () => finisher.settleCompleted(task));
      return { status: 'completed' };
    }
    if (task.status === 'failed') return { status: 'failed' };
    if (task.deadlineAt.getTime() <= Date.now()) {
      await this.persistently('fail the overdue task', task.requestId, this.storeDeadlineOf(task), () => finisher.failOverdue({ requestId: task.requestId }));
      return { status: 'failed' };
    }
    await this.persistently('mark the task in progress', task.requestId, task.deadlineAt.getTime(), () => tasks.markInProgress(task.requestId));
    return this.work(task);
  }

  private async work(task: ResearchTask): Promise<ResearchResult> {
    const { tasks, events, finisher, log } = this.options;
    const publish = await events.publisherFor(task.requestId);
    const wrapUp = new AbortController();
    const wrapUpAt = wrapUpAtOf(task);
    const timer = setTimeout(() => wrapUp.abort(new Error(OVERDUE_REASON)), wrapUpAt - Date.now());
    const overdue = () => Date.now() >= task.deadlineAt.getTime();
    const progress: ResearchProgress = {
      // Past the deadline the task has failed (here, or by the sweep): its stream ends with that error, nothing after it.
      emit: async (event) => {
        if (!overdue()) await publish(event);
      },
      // Progress is for resuming after a crash: a save lost to a database outage costs a resume some work, the task nothing.
      checkpoint: (state) =>
        tasks.saveCheckpoint(task.requestId, state).catch((error: unknown) => {
          log('error', 'research checkpoint not saved', { requestId: task.requestId, error: (error as Error).message });
        }),
      signal: wrapUp.signal,
      deadlineAt: new Date(wrapUpAt),
    };
    const resumed = task.checkpoint !== null;
    let outcome: ResearchOutcome;
    try {
      outcome = await this.options.runResearch(task.request, budgetOf(task), this.options.dependenciesFor(task), progress, task.checkpoint ?? undefined);
    } catch (error) {
      const reason = wrapUp.signal.aborted ? OVERDUE_REASON : `Research failed: ${(error as Error).message}`;
      await this.persistently('fail the task', task.requestId, this.storeDeadlineOf(task), () => finisher.fail(task, reason));
      log('error', 'research task failed', { requestId: task.requestId, error: reason, resumed });
      return { status: 'failed' };
    } finally {
      clearTimeout(timer);
    }
    const stored = await this.persistently('store the report', task.requestId, this.storeDeadlineOf(task), () => finisher.complete(task, outcome));
    log('info', stored ? 'research task completed' : 'research task finished after its deadline had failed it; not stored', {
      requestId: task.requestId,
      mode: outcome.mode,
      model: outcome.resolvedModel,
      searches: outcome.work.searches,
      extractions: outcome.work.extractions,
      sources: outcome.sources.length,
      partial: outcome.partialReason !== undefined,
      resumed,
    });
    return { status: stored ? 'completed' : 'failed' };
  }

  /** Until when a task's end (its report, its failure) is tried again: well past its deadline, the work being done. */
  private storeDeadlineOf(task: ResearchTask): number {
    return Math.max(task.deadlineAt.getTime(), Date.now()) + STORE_PAST_DEADLINE_MS;
  }

  /**
   * The step, tried again with growing waits while it throws (the database is away), until `until` (epoch ms); then
   * its error is the job's. Every step given here may run twice: each is conditional on the row's state, or a replay.
   */
  private async persistently<T>(step: string, requestId: string, until: number, attempt: () => Promise<T>): Promise<T> {
    for (let delayMs = FIRST_RETRY_DELAY_MS; ; delayMs = Math.min(delayMs * 2, LONGEST_RETRY_DELAY_MS)) {
      try {
        return await attempt();
      } catch (error) {
        if (Date.now() + delayMs > until) throw error;
        this.options.log('error', `research worker could not ${step}; trying again`, { requestId, error: (error as Error).message, retryInMs: delayMs });
        await sleep(delayMs);
      }
    }
  }
}
