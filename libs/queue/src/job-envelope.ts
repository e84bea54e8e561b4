/**
 * Fields of a job's data that travel beside the payload, not in the job contracts: the caller's deadline (epoch ms)
 * and the request id its log lines carry. The queue library adds them on enqueue and removes them before the
 * handler validates the payload (a worker of an older version strips them as unknown keys).
 */
export const JOB_DEADLINE_FIELD = 'siftDeadlineAt';
export const JOB_REQUEST_ID_FIELD = 'siftRequestId';
export const JOB_READS_RESULT_PARTS_FIELD = 'siftReadsResultParts';

export interface JobEnvelope {
  deadlineAt?: number;
  requestId?: string;
  /**
   * The producer waits for the result and reads items handed over while the job runs (result-parts.ts). A producer
   * of an older version does not say so, and its worker then returns the whole result at the end.
   */
  readsResultParts?: boolean;
}

export function withEnvelope<Payload>(payload: Payload, envelope: JobEnvelope): Payload {
  return {
    ...payload,
    ...(envelope.deadlineAt === undefined ? {} : { [JOB_DEADLINE_FIELD]: envelope.deadlineAt }),
    ...(envelope.requestId === undefined ? {} : { [JOB_REQUEST_ID_FIELD]: envelope.requestId }),
    ...(envelope.readsResultParts ? { [JOB_READS_RESULT_PARTS_FIELD]: true } : {}),
  };
}

/** The payload without the envelope, and the envelope's fields the producer set. */
export function openEnvelope(data: unknown): { payload: unknown } & JobEnvelope {
  if (typeof data !== 'object' || data === null) return { payload: data };
  const { [JOB_DEADLINE_FIELD]: deadlineAt, [JOB_REQUEST_ID_FIELD]: requestId, [JOB_READS_RESULT_PARTS_FIELD]: readsResultParts, ...payload } = data as Record<string, unknown>;
  return {
    payload,
    deadlineAt: typeof deadlineAt === 'number' && Number.isFinite(deadlineAt) ? deadlineAt : undefined,
    requestId: typeof requestId === 'string' ? requestId : undefined,
    readsResultParts: readsResultParts === true,
  };
}

const EXPIRED_REASON = 'before a worker could start it';

/** A job whose caller stopped waiting: it is failed without running. */
export class JobExpiredError extends Error {
  override readonly name = 'JobExpiredError';

  constructor(jobName: string, jobId: string, deadlineAt: number) {
    super(`Job ${jobName} (${jobId}) expired ${Date.now() - deadlineAt} ms ${EXPIRED_REASON}`);
  }
}

/** Whether a failed job's reason is its expiry (it never ran), as BullMQ hands the reason back to the waiter. */
export function isExpiryReason(failedReason: string): boolean {
  return failedReason.endsWith(EXPIRED_REASON);
}
