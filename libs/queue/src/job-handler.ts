import type { JobDefinition } from '@sift/queue-contracts';
import type { ResultParts } from './result-parts';
import { validatePayload } from './validate-payload';

export interface JobContext {
  jobId: string;
  /** 1 on the first run; higher when BullMQ redelivers a job after a stall. */
  attempt: number;
  /** Epoch ms when the caller stops waiting, if the producer said; a handler should not work past it. */
  deadlineAt?: number;
  /**
   * Present when the producer reads a result's items while the job runs: the run's ResultParts, made on the first
   * call. A handler that finishes it returns its result with the field it named left empty.
   */
  resultParts?: <Item>() => ResultParts<Item>;
}

/**
 * The time a handler may spend: its payload's own budget (counted from pick-up), cut to what is left before the
 * caller's deadline less `replyMarginMs`, so a job that waited in the queue still answers while someone listens.
 */
export function remainingBudgetMs(context: JobContext, budgetMs: number, replyMarginMs = 0): number {
  if (context.deadlineAt === undefined) return budgetMs;
  return Math.max(1, Math.min(budgetMs, context.deadlineAt - replyMarginMs - Date.now()));
}

export type JobHandlerFunction<Payload, Result> = (payload: Payload, context: JobContext) => Promise<Result>;

/** A handler bound to the job it serves; a worker is started with a list of these. */
export interface JobHandler {
  readonly definition: JobDefinition<unknown, unknown>;
  /** Re-validates the payload with the job's schema, then runs the handler. */
  run(rawPayload: unknown, context: JobContext): Promise<unknown>;
}

/** The handler's signature is checked against the definition here, so a worker cannot return the wrong result. */
export function defineJobHandler<Payload, Result>(
  definition: JobDefinition<Payload, Result>,
  handle: JobHandlerFunction<Payload, Result>,
): JobHandler {
  return {
    definition,
    // Producer and worker versions differ during a rolling deploy; the worker trusts only what it parsed itself.
    run: async (rawPayload, context) => handle(validatePayload(definition, rawPayload), context),
  };
}
