import type { NewRequestLog } from '@sift/persistence';

/** What a request did beyond its response body: recorded in its request log row. */
export interface RequestUsage {
  /** The depth the caller asked for (search, extract, crawl); null where the endpoint has none. */
  depth: string | null;
  credits: number;
  /** Endpoint-specific facts for operators (providers asked, pages fetched, …); null when there are none. */
  detail: NewRequestLog['detail'] | null;
}

/** A data-plane service's answer: the response body and the usage the request log records. */
export interface RequestOutcome<Response> {
  response: Response;
  usage: RequestUsage;
}

/** Usage of a request that failed before it did any billed work. */
export const NO_USAGE: RequestUsage = { depth: null, credits: 0, detail: null };
