/** The job ran and its handler threw; `reason` is the failure message the worker recorded. */
export class JobFailedError extends Error {
  override readonly name = 'JobFailedError';

  constructor(
    readonly jobName: string,
    readonly jobId: string,
    readonly reason: string,
  ) {
    super(`Job ${jobName} (${jobId}) failed: ${reason}`);
  }
}
