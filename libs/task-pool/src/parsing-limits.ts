/** The parsing settings of a worker's validated config (libs/config's parsing fragment). */
export interface ParsingSettings {
  PARSE_DEADLINE_MS: number;
  PARSE_THREAD_HEAP_MB: number;
  PARSE_QUEUE_LIMIT: number;
}

/** A parsing pool's limits from a worker's config: the same deadline, heap cap and queue bound in every worker. */
export function parsingLimitsOf(settings: ParsingSettings): { deadlineMs: number; maxHeapMb: number; maxQueue: number } {
  return { deadlineMs: settings.PARSE_DEADLINE_MS, maxHeapMb: settings.PARSE_THREAD_HEAP_MB, maxQueue: settings.PARSE_QUEUE_LIMIT };
}
