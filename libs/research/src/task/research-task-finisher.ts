import { type BillingService, researchChargeLines } from '@sift/billing';
import type { RequestLogRepository } from '@sift/persistence';
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
    private readonly requestLogs: Pick<RequestLogRepository, 'recordLateCharge'>,
    private readonly log: FinisherLog = () => undefined,
    /** Told the credits of each settle that charged (not of a replay): the process's credits metric. */
    private readonly charged: (credits: number) => void = () => undefined,
  ) {}

  /**
   * Stores the report, then charges it, then tells the stream; false when the task had failed instead. Stored
   * first: a task the deadline failed meanwhile is not rewritten and not charged. A crash between the two leaves a
   * completed task without credits, which the retried job settles (settleCompleted); the ledger's unique (request id,
   * kind) makes any second settle a replay. Called again after it threw (the database went away on the way), it
   * finishes what the first call left: a report found stored is charged as stored, not stored twice.
   */
  async complete(task: ResearchTask, outcome: ResearchOutcome): Promise<boolean> {
    if (await this.tasks.complete(task.requestId, outcome)) {
      await this.settleCompleted({ ...task, status: 'completed', work: outcome.work, mode: outcome.mode });
      return true;
    }
    const stored = await this.tasks.findForAccount(task.accountId, task.requestId);
    if (stored?.status !== 'completed') return false;
    if (stored.credits === null) await this.settleCompleted(stored);
    return true;
  }

  /**
   * Charges a completed task for its recorded work (again: a replay answers the first charge), shows the charge and
   * the writer in the task's request log (POST logged the task's start, with 0 credits), and ends its stream.
   */
  async settleCompleted(task: ResearchTask): Promise<void> {
    const settled = task.reservation && task.work ? await this.billing.settle(task.reservation, researchChargeLines(task.work)) : null;
    const credits = settled?.charged ?? 0;
    if (settled && !settled.replayed) this.charged(credits);
    // Settled twice at once (the worker and a GET), the ledger charged once and one of the two tells the log and the stream.
    if (!(await this.tasks.recordCredits(task.requestId, credits))) return;
    const logged = await this.requestLogs.recordLateCharge(task.accountId, task.requestId, credits, {
      mode: task.mode,
      searches: task.work?.searches ?? 0,
      pages_read: task.work?.extractions ?? 0,
    });
    // The gateway writes its log rows in batches, 100 ms after answering; a task cannot complete that fast unless the
    // gateway's writes are failing, in which case its row (0 credits) comes later and the ledger and /usage are right.
    if (!logged) this.log('error', 'research task charged before its request log row was written', { requestId: task.requestId, credits });
    await this.events.publish(task.requestId, { type: 'done' });
  }

  /**
   * Fails an unfinished task with the reason, frees its credits and ends its stream; false when it had finished.
   * The hold is released before the task reads as failed, so nobody sees a failed task still holding credits. A task
   * that completes in between settles without its hold, within what the limits allow then (as after a lost hold).
   */
  async fail(task: ResearchTask, reason: string): Promise<boolean> {
    await this.release(task);
    const failed = await this.tasks.fail(task.requestId, reason);
    if (failed) await this.events.publish(failed.requestId, { type: 'error', error: failed.error ?? reason });
    return failed !== null;
  }

  /** Fails every overdue task (or the one given), as fail does for each; returns those it failed. */
  async failOverdue(only?: { requestId: string }): Promise<ResearchTask[]> {
    const overdue = await this.tasks.findOverdue(only);
    for (const task of overdue) await this.release(task);
    const failed = await this.tasks.failOverdue(overdue.map((task) => task.requestId));
    for (const task of failed) await this.events.publish(task.requestId, { type: 'error', error: task.error ?? 'Research failed.' });
    return failed;
  }

  private async release(task: ResearchTask): Promise<void> {
    if (!task.reservation) return;
    try {
      await this.billing.release(task.reservation);
    } catch (error) {
      // The reservation stops counting when it expires; the task's own failure is what the caller must see.
      this.log('error', 'release of a failed research task failed', { requestId: task.requestId, error: (error as Error).message });
    }
  }
}
