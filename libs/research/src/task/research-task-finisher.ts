import { type BillingService, researchChargeLines } from '@sift/billing';
import type { ResearchOutcome } from '../pipeline/research-pipeline';
import type { ResearchEvents } from './research-events';
import type { ResearchTask } from './research-task';
import type { ResearchTaskRepository } from './research-task.repository';

export type FinisherLog = (level: 'info' | 'error', message: string, details?: Record<string, unknown>) => void;

/**
 * The ends of a research task, each with its charge and its last stream event, in one place for the worker and
 * the gateway: a completed task is charged for its work, once; a failed one costs nothing and frees its credits.
 */
export class ResearchTaskFinisher {
  constructor(
    private readonly tasks: ResearchTaskRepository,
    private readonly events: ResearchEvents,
    private readonly billing: Pick<BillingService, 'settle' | 'release'>,
    private readonly log: FinisherLog = () => undefined,
  ) {}

  /**
   * Stores the report, then charges it, then tells the stream. Stored first: a task the deadline failed meanwhile
   * is not rewritten and not charged. A crash between the two leaves a completed task without credits, which the
   * retried job settles (settleCompleted); the ledger's unique (request id, kind) makes any second settle a replay.
   */
  async complete(task: ResearchTask, outcome: ResearchOutcome): Promise<boolean> {
    const stored = await this.tasks.complete(task.requestId, outcome);
    if (!stored) return false;
    await this.settleCompleted({ ...task, status: 'completed', work: outcome.work });
    return true;
  }

  /** Charges a completed task for its recorded work (again: a replay answers the first charge) and ends its stream. */
  async settleCompleted(task: ResearchTask): Promise<void> {
    if (task.reservation && task.work) {
      const { charged } = await this.billing.settle(task.reservation, researchChargeLines(task.work));
      await this.tasks.recordCredits(task.requestId, charged);
    } else {
      await this.tasks.recordCredits(task.requestId, 0);
    }
    await this.events.publish(task.requestId, { type: 'done' });
  }

  /** Fails an unfinished task with the reason, frees its credits and ends its stream; false when it had finished. */
  async fail(requestId: string, reason: string): Promise<boolean> {
    const failed = await this.tasks.fail(requestId, reason);
    if (failed) await this.closeFailed(failed);
    return failed !== null;
  }

  /** Fails every overdue task (or the one given), as fail does for each; returns them. */
  async failOverdue(only?: { requestId: string }): Promise<ResearchTask[]> {
    const failed = await this.tasks.failOverdue(only);
    for (const task of failed) await this.closeFailed(task);
    return failed;
  }

  private async closeFailed(task: ResearchTask): Promise<void> {
    if (task.reservation) {
      try {
        await this.billing.release(task.reservation);
      } catch (error) {
        // The reservation stops counting when it expires; the task's own failure is what the caller must see.
        this.log('error', 'release of a failed research task failed', { requestId: task.requestId, error: (error as Error).message });
      }
    }
    await this.events.publish(task.requestId, { type: 'error', error: task.error ?? 'Research failed.' });
  }
}
