import type { ZodError } from 'zod';

/** A payload does not match its job's schema, at the producer or at the worker. */
export class InvalidJobPayloadError extends Error {
  override readonly name = 'InvalidJobPayloadError';

  constructor(
    readonly jobName: string,
    readonly issues: ZodError['issues'],
  ) {
    super(
      `Invalid payload for job ${jobName}: ${issues
        .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
        .join('; ')}`,
    );
  }
}
