import type { ZodType, ZodTypeDef } from 'zod';
import type { QueueName } from './queue-name';

/**
 * Pairs a job name, its queue and the schemas of its payload and result, so a wrong payload does not compile
 * at the producer and is rejected again at the consumer (producer and consumer versions differ during a
 * rolling deploy).
 */
export interface JobDefinition<Payload, Result> {
  readonly name: string;
  readonly queue: QueueName;
  readonly payloadSchema: ZodType<Payload, ZodTypeDef, unknown>;
  readonly resultSchema: ZodType<Result, ZodTypeDef, unknown>;
  /**
   * How many times the queue runs the job before giving up. Retrying a job that reached a web server can
   * repeat its side effects and doubles the wait of a caller who is holding a request open, so the default is 1.
   */
  readonly attempts: number;
  /**
   * Its handler hands its result's items over while it runs (a crawl's pages, as each is made): a producer waiting
   * for it reads them as they come instead of all at the end.
   */
  readonly streamsResultParts?: boolean;
}

export type JobPayloadOf<Definition> = Definition extends JobDefinition<infer Payload, unknown> ? Payload : never;
export type JobResultOf<Definition> = Definition extends JobDefinition<unknown, infer Result> ? Result : never;

export function defineJob<Payload, Result>(
  definition: Omit<JobDefinition<Payload, Result>, 'attempts'> & { attempts?: number },
): JobDefinition<Payload, Result> {
  return Object.freeze({ ...definition, attempts: definition.attempts ?? 1 });
}
