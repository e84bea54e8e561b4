import { randomBytes } from 'node:crypto';
import type { Job } from 'bullmq';
import type { Redis } from 'ioredis';

/**
 * A job's result whose bulk is a list of items made one by one (a crawl's pages) can hand them over while it runs,
 * instead of in one JSON at its end: the worker pushes each item's JSON to a Redis list of the job's own as it is
 * made, the waiting producer reads and parses the list as it grows, and the job's return value only says which items
 * make its list field, in which order. The end of a long job then costs neither side the serialisation of the whole
 * list (megabytes for a crawl), which its caller would otherwise wait for after the last item was made.
 *
 * Every element of the list starts with the token of the run that pushed it: a job taken back from a worker that
 * stopped answering runs again under the same id while the first run may still push, and the return value names the
 * run whose items it lists.
 */
const RESULT_PARTS_FIELD = 'siftResultParts';

/** Characters of a run's token at the start of each element (hexadecimal, so as many bytes). */
const TOKEN_CHARACTERS = 12;

/** Items are pushed this long after the first of them is made, or at once past PUSH_BYTES: a few pushes a second. */
const PUSH_DELAY_MS = 50;
const PUSH_BYTES = 256 * 1024;

/** How often a waiting producer reads the items pushed since its last read. */
export const RESULT_PARTS_READ_INTERVAL_MS = 100;

interface ResultPartsReference {
  key: string;
  token: string;
  /** Items the run pushed. */
  count: number;
  /** The result's field the items make. */
  field: string;
  /** The field's items as indices into the pushed ones (an item may be left out). */
  order: number[];
}

/** The list a job's items are pushed to. */
export function resultPartsKeyOf(prefix: string, queueName: string, jobId: string): string {
  return `${prefix}:${queueName}:parts:${jobId}`;
}

/** The worker's side: one run's items, pushed as they are made. */
export class ResultParts<Item> {
  private readonly token = randomBytes(TOKEN_CHARACTERS / 2).toString('hex');
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly pushes: Promise<void>[] = [];
  private count = 0;
  private finished: Pick<ResultPartsReference, 'field' | 'order'> | undefined;

  constructor(
    private readonly connection: Redis,
    private readonly key: string,
    private readonly keepSeconds: number,
  ) {}

  /** Queues the item to be pushed; returns its index among this run's items. */
  add(item: Item): number {
    // As bytes: ioredis writes a string holding characters beyond Latin-1 through a slow path (see job-result.ts).
    const element = Buffer.from(this.token + JSON.stringify(item), 'utf8');
    this.pending.push(element);
    this.pendingBytes += element.length;
    if (this.pendingBytes >= PUSH_BYTES) this.push();
    else this.timer ??= setTimeout(() => this.push(), PUSH_DELAY_MS);
    return this.count++;
  }

  /**
   * Pushes what is left and records that the result's `field` is made of the items at `order`. Throws when a push
   * failed: the producer could not assemble the result.
   */
  async finish(field: string, order: number[]): Promise<void> {
    this.push();
    await Promise.all(this.pushes);
    this.finished = { field, order };
  }

  /** The return value for `result`: with the reference to its items once finish() succeeded, else `result` itself. */
  resultWithReference(result: unknown): unknown {
    if (!this.finished || typeof result !== 'object' || result === null) return result;
    const reference: ResultPartsReference = { key: this.key, token: this.token, count: this.count, ...this.finished };
    return { ...result, [RESULT_PARTS_FIELD]: reference };
  }

  private push(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.length === 0) return;
    const elements = this.pending;
    this.pending = [];
    this.pendingBytes = 0;
    const pushed = this.connection
      .multi()
      .rpush(this.key, ...elements)
      .expire(this.key, this.keepSeconds)
      .exec()
      .then((replies) => {
        const failure = replies?.find(([error]) => error !== null)?.[0];
        if (!replies || failure) throw failure ?? new Error(`the push to ${this.key} was discarded`);
      });
    // Awaited by finish(); a failure before it must not be an unhandled rejection meanwhile.
    pushed.catch(() => undefined);
    this.pushes.push(pushed);
  }
}

/** The worker's ResultParts for a job, its list kept as long as the job's result is. */
export function resultPartsOf<Item>(connection: Redis, prefix: string, job: Job, keepSeconds: number): ResultParts<Item> {
  return new ResultParts<Item>(connection, resultPartsKeyOf(prefix, job.queueName, job.id ?? ''), keepSeconds);
}

/** The producer's side: the items of a job's list read so far, by the token of the run that pushed them. */
export class ResultPartsReader {
  private readonly items = new Map<string, unknown[]>();
  private read = 0;
  private reading: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly connection: Redis,
    private readonly key: string,
  ) {}

  /** Reads the list every RESULT_PARTS_READ_INTERVAL_MS until stop(); a failed read (Redis away a moment) is tried at the next. */
  start(): void {
    this.timer = setInterval(() => void this.readNew().catch(() => undefined), RESULT_PARTS_READ_INTERVAL_MS);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /**
   * The result `returnValue` stands for: itself, or with its field made of the items it refers to (read now if
   * they were not yet). Throws when the run's items are not all in the list.
   */
  async resultOf(returnValue: unknown): Promise<unknown> {
    const reference = resultPartsReferenceOf(returnValue);
    if (!reference) return returnValue;
    this.stop();
    await this.readNew();
    const items = this.items.get(reference.token) ?? [];
    if (items.length !== reference.count) {
      throw new Error(`the job's result lists ${reference.count} items in ${reference.key}, of which ${items.length} were found`);
    }
    const { [RESULT_PARTS_FIELD]: _reference, ...result } = returnValue as Record<string, unknown>;
    return { ...result, [reference.field]: reference.order.map((index) => items[index]) };
  }

  /** One read at a time: each takes the elements past the last one read. */
  private readNew(): Promise<void> {
    this.reading = (this.reading ?? Promise.resolve()).catch(() => undefined).then(async () => {
      const elements = await this.connection.lrangeBuffer(this.key, this.read, -1);
      this.read += elements.length;
      for (const element of elements) {
        const token = element.toString('latin1', 0, TOKEN_CHARACTERS);
        const items = this.items.get(token) ?? [];
        items.push(JSON.parse(element.toString('utf8', TOKEN_CHARACTERS)) as unknown);
        this.items.set(token, items);
      }
    });
    return this.reading;
  }
}

/** Whether a return value refers to items handed over while its job ran. */
export function hasResultParts(returnValue: unknown): boolean {
  return resultPartsReferenceOf(returnValue) !== undefined;
}

/**
 * The result `returnValue` stands for, its items taken from `reader` (what it read while the job ran), or all read
 * now when there is none (a caller that did not read them along).
 */
export function resultWithParts(connection: Redis, returnValue: unknown, reader?: ResultPartsReader): Promise<unknown> {
  const reference = resultPartsReferenceOf(returnValue);
  if (!reference) return Promise.resolve(returnValue);
  return (reader ?? new ResultPartsReader(connection, reference.key)).resultOf(returnValue);
}

function resultPartsReferenceOf(returnValue: unknown): ResultPartsReference | undefined {
  if (typeof returnValue !== 'object' || returnValue === null) return undefined;
  const reference = (returnValue as Record<string, unknown>)[RESULT_PARTS_FIELD];
  return typeof reference === 'object' && reference !== null ? (reference as ResultPartsReference) : undefined;
}
