/**
 * The field of a job's data that carries its caller's deadline (epoch ms). It travels beside the payload, not in
 * the job contracts: the queue library adds it on enqueue and removes it before the handler validates the payload.
 */
export const JOB_DEADLINE_FIELD = 'siftDeadlineAt';

export function withDeadline<Payload>(payload: Payload, deadlineAt: number): Payload {
  return { ...payload, [JOB_DEADLINE_FIELD]: deadlineAt };
}

/** The payload without the deadline, and the deadline if the producer set one. */
export function splitDeadline(data: unknown): { payload: unknown; deadlineAt?: number } {
  if (typeof data !== 'object' || data === null || !(JOB_DEADLINE_FIELD in data)) return { payload: data };
  const { [JOB_DEADLINE_FIELD]: deadlineAt, ...payload } = data as Record<string, unknown>;
  return { payload, deadlineAt: typeof deadlineAt === 'number' && Number.isFinite(deadlineAt) ? deadlineAt : undefined };
}

/** A job whose caller stopped waiting: it is failed without running. */
export class JobExpiredError extends Error {
  override readonly name = 'JobExpiredError';

  constructor(jobName: string, jobId: string, deadlineAt: number) {
    super(`Job ${jobName} (${jobId}) expired ${Date.now() - deadlineAt} ms before a worker could start it`);
  }
}
