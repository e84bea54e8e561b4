import type { Job } from 'bullmq';
import type { Redis } from 'ioredis';

/**
 * A job's result larger than this (in characters of its JSON) is handed over through a Redis key of its own, and the
 * job's return value names the key. BullMQ writes a return value into the job and into the queue's event stream, whose
 * every 'completed' entry each producer's QueueEvents reads and parses, its own jobs or not, and which keeps its last
 * 10,000 entries: whole pages and crawls there cost every gateway the parsing of every result, and Redis the memory of
 * thousands of them. The key is read by the one caller waiting for the job, and expires with the job.
 */
const INLINE_RESULT_CHARACTERS = 16_384;

/** The field of a return value that names the key holding the result. */
const RESULT_KEY_FIELD = 'siftResultKey';

/**
 * How long a completed job stays in Redis when nothing else is said: JobQueue's default keep, and the result key's life
 * for a job whose options carry no removeOnComplete age (one not added by JobQueue).
 */
export const DEFAULT_KEEP_COMPLETED_SECONDS = 3_600;

/**
 * The return value to give BullMQ for a handler's `result`: the result itself, or, when its JSON is longer than
 * INLINE_RESULT_CHARACTERS, a reference to the key it was written to (kept as long as the job is).
 */
export async function handedOverResult(connection: Redis, prefix: string, job: Job, result: unknown): Promise<unknown> {
  const json = JSON.stringify(result);
  if (json === undefined || json.length <= INLINE_RESULT_CHARACTERS) return result;
  const key = `${prefix}:${job.queueName}:result:${job.id ?? ''}`;
  // As bytes: ioredis writes a string argument through a slow path when it holds characters beyond Latin-1 (a page's
  // typographic quotes, a CJK word), about 50 ms for a 3 MB crawl; its UTF-8 bytes go out in a few.
  await connection.set(key, Buffer.from(json, 'utf8'), 'EX', resultKeepSecondsOf(job));
  return { [RESULT_KEY_FIELD]: key };
}

/** How long what a job hands over through keys of its own is kept: as long as the job. */
export function resultKeepSecondsOf(job: Job): number {
  const keep = job.opts.removeOnComplete;
  return typeof keep === 'object' && 'age' in keep && keep.age !== undefined ? keep.age : DEFAULT_KEEP_COMPLETED_SECONDS;
}

/** The key a return value refers to, when the result was handed over through one. */
export function resultKeyOf(returnValue: unknown): string | undefined {
  if (typeof returnValue !== 'object' || returnValue === null) return undefined;
  const key = (returnValue as Record<string, unknown>)[RESULT_KEY_FIELD];
  return typeof key === 'string' ? key : undefined;
}

/** The result a return value stands for: itself, or the JSON read back from the key it names. */
export async function receivedResult(connection: Redis, returnValue: unknown): Promise<unknown> {
  const key = resultKeyOf(returnValue);
  if (key === undefined) return returnValue;
  const json = await connection.get(key);
  if (json === null) throw new Error(`the job's result (${key}) expired before it was read`);
  return JSON.parse(json) as unknown;
}
