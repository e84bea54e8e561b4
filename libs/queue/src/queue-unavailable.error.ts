/** Redis, which holds the queues (and the rate-limit counters), did not answer in time: retry later. */
export class QueueUnavailableError extends Error {
  override readonly name = 'QueueUnavailableError';
  /** What a 503's Retry-After says: a Redis restart or failover usually takes seconds. */
  readonly retryAfterSeconds = 5;

  constructor(readonly operation: string, cause?: unknown) {
    super(`Redis is unavailable (${operation}): ${cause instanceof Error ? cause.message : String(cause ?? 'not connected')}`);
  }
}
