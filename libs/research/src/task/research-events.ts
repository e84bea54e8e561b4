import { blockingOptionsOf } from '@sift/queue';
import { researchEventSchema, type ResearchEvent } from '@sift/queue-contracts';
import { Redis } from 'ioredis';
import { ReplayedEvents } from './replayed-events';

/** Events kept per task at most (approximate trim): a report streamed in many pieces never grows without bound. */
const MAXIMUM_EVENTS = 5_000;
/** A finished task's events stay readable this long, for a client that connects (or reconnects) late. */
const FINISHED_EVENTS_TTL_SECONDS = 3_600;
/** An unfinished task's events expire after this unless it finishes: a task past every deadline leaves nothing behind. */
const UNFINISHED_EVENTS_TTL_SECONDS = 2 * 3_600;
/** How long one read waits for new events before reporting that none came (the follower then checks the task's row). */
const DEFAULT_BLOCK_MS = 5_000;

/** What following a task yields: its next event, or a quiet spell in which none came. */
export type FollowedEvent = { event: ResearchEvent } | { idle: true };

function isTerminal(event: ResearchEvent): boolean {
  return event.type === 'done' || event.type === 'error';
}

/** An entry of the stream: its one field, `event`, holds the event as JSON. */
function eventOf(fields: string[]): ResearchEvent {
  return researchEventSchema.parse(JSON.parse(fields[1]));
}

/**
 * A task's stream events, one Redis stream per task: the worker publishes as it works, and every follower reads
 * from the start (XREAD BLOCK), so a client that connects late, or on another gateway, sees the whole task.
 */
export class ResearchEvents {
  constructor(
    private readonly redis: Redis,
    private readonly queuePrefix: string,
  ) {}

  async publish(requestId: string, event: ResearchEvent): Promise<void> {
    const key = this.keyOf(requestId);
    const ttl = isTerminal(event) ? FINISHED_EVENTS_TTL_SECONDS : UNFINISHED_EVENTS_TTL_SECONDS;
    await this.redis
      .multi()
      .xadd(key, 'MAXLEN', '~', String(MAXIMUM_EVENTS), '*', 'event', JSON.stringify(researchEventSchema.parse(event)))
      .expire(key, ttl)
      .exec();
  }

  /**
   * How an attempt at the task publishes: a resumed attempt replays the steps its checkpoint had not saved, whose
   * events the attempt that died already published; those are left out, so a client sees each step once.
   */
  async publisherFor(requestId: string): Promise<(event: ResearchEvent) => Promise<void>> {
    const earlier = (await this.redis.xrange(this.keyOf(requestId), '-', '+')).map(([, fields]) => eventOf(fields));
    const replayed = new ReplayedEvents(earlier);
    return async (event) => {
      if (!replayed.repeats(event)) await this.publish(requestId, event);
    };
  }

  /**
   * The task's events from the first, as they come, until `done` or `error` or until `signal` aborts (the client
   * went away). Reads on a connection of its own, since a blocking read holds its connection. Yields `{ idle }`
   * after each quiet spell, so the caller can look at the task's row (a task failed by a sweep on a stream that
   * expired, say) and stop.
   */
  async *follow(requestId: string, signal: AbortSignal, blockMs = DEFAULT_BLOCK_MS): AsyncGenerator<FollowedEvent> {
    const connection = new Redis(blockingOptionsOf(this.redis));
    connection.on('error', () => undefined);
    const stop = () => connection.disconnect();
    signal.addEventListener('abort', stop, { once: true });
    let lastId = '0';
    try {
      while (!signal.aborted) {
        const batch = await connection.xread('COUNT', 100, 'BLOCK', blockMs, 'STREAMS', this.keyOf(requestId), lastId).catch((error: unknown) => {
          if (signal.aborted) return null;
          throw error;
        });
        if (signal.aborted) return;
        if (!batch) {
          yield { idle: true };
          continue;
        }
        for (const [, entries] of batch) {
          for (const [id, fields] of entries) {
            lastId = id;
            const event = eventOf(fields);
            yield { event };
            if (isTerminal(event)) return;
          }
        }
      }
    } finally {
      signal.removeEventListener('abort', stop);
      connection.disconnect();
    }
  }

  private keyOf(requestId: string): string {
    return `${this.queuePrefix}:research:${requestId}:events`;
  }
}
