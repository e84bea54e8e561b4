import type { JobDefinition } from '@sift/queue-contracts';

export interface JobContext {
  jobId: string;
  /** 1 on the first run; higher when BullMQ redelivers a job after a stall. */
  attempt: number;
}

export type JobHandlerFunction<Payload, Result> = (payload: Payload, context: JobContext) => Promise<Result>;

/** A handler bound to the job it serves; a worker is started with a list of these. */
export interface JobHandler<Payload, Result> {
  readonly definition: JobDefinition<Payload, Result>;
  readonly handle: JobHandlerFunction<Payload, Result>;
}

export function defineJobHandler<Payload, Result>(
  definition: JobDefinition<Payload, Result>,
  handle: JobHandlerFunction<Payload, Result>,
): JobHandler<Payload, Result> {
  return { definition, handle };
}
