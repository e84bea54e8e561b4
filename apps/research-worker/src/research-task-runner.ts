import { affordableResearch, RESEARCH_CEILINGS, researchCreditsBound } from '@sift/billing';
import type { WorkerLog } from '@sift/queue';
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

/** The work a task's grant pays for, at most its model's ceiling. */
function budgetOf(task: ResearchTask): ResearchBudget {
  const credits = task.reservation?.credits ?? researchCreditsBound(RESEARCH_CEILINGS[task.request.model]);
  return affordableResearch(task.request.model, credits);
}

/**
 * One research job: the task's row says what to do and where it stands. A finished task is left alone (a job
 * delivered again after a stall), a task with a checkpoint resumes from it, and whatever happens the task ends
 * completed (stored, then charged) or failed (its credits released), each announced on its stream.
 */
export class ResearchTaskRunner {
  constructor(private readonly options: ResearchTaskRunnerOptions) {}

  async run(payload: ResearchPayload): Promise<ResearchResult> {
    const { tasks, finisher, log } = this.options;
    const task = await tasks.findForAccount(payload.accountId, payload.requestId);
    if (!task) {
      log('error', 'research job names no task of its account', { requestId: payload.requestId });
      return { status: 'failed' };
    }
    if (task.status === 'completed') {
      // Stored but not charged: the worker died between the two. The settle is idempotent per task.
      if (task.credits === null) await finisher.settleCompleted(task);
      return { status: 'completed' };
    }
    if (task.status === 'failed') return { status: 'failed' };
    if (task.deadlineAt.getTime() <= Date.now()) {
      await finisher.failOverdue({ requestId: task.requestId });
      return { status: 'failed' };
    }
    await tasks.markInProgress(task.requestId);
    return this.work(task);
  }

  private async work(task: ResearchTask): Promise<ResearchResult> {
    const { tasks, events, finisher, log } = this.options;
    const emit = await events.publisherFor(task.requestId);
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(new Error(OVERDUE_REASON)), task.deadlineAt.getTime() - Date.now());
    const progress: ResearchProgress = {
      emit,
      checkpoint: (state) => tasks.saveCheckpoint(task.requestId, state),
      signal: deadline.signal,
      deadlineAt: task.deadlineAt,
    };
    const resumed = task.checkpoint !== null;
    let outcome: ResearchOutcome;
    try {
      outcome = await this.options.runResearch(task.request, budgetOf(task), this.options.dependenciesFor(task), progress, task.checkpoint ?? undefined);
    } catch (error) {
      const reason = deadline.signal.aborted ? OVERDUE_REASON : `Research failed: ${(error as Error).message}`;
      await finisher.fail(task, reason);
      log('error', 'research task failed', { requestId: task.requestId, error: reason, resumed });
      return { status: 'failed' };
    } finally {
      clearTimeout(timer);
    }
    const stored = await finisher.complete(task, outcome);
    log('info', stored ? 'research task completed' : 'research task finished after its deadline had failed it; not stored', {
      requestId: task.requestId,
      mode: outcome.mode,
      model: outcome.resolvedModel,
      searches: outcome.work.searches,
      extractions: outcome.work.extractions,
      sources: outcome.sources.length,
      resumed,
    });
    return { status: stored ? 'completed' : 'failed' };
  }
}
