/** The caller stopped waiting: the job did not finish within the time the caller could afford. */
export class JobTimeoutError extends Error {
  override readonly name = 'JobTimeoutError';

  constructor(
    readonly jobName: string,
    readonly jobId: string,
    readonly timeoutMs: number,
  ) {
    super(`Job ${jobName} (${jobId}) did not finish within ${timeoutMs} ms`);
  }
}
