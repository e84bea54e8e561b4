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

/**
 * A request that failed once it knew its depth: the caller gets `cause`'s answer, the request log also records
 * `usage`. Only the recording unwraps it (the exception filter, the request-log interceptor, MCP tool calls).
 */
export class FailedRequestError extends Error {
  constructor(
    cause: unknown,
    readonly usage: RequestUsage,
  ) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
  }
}

/** Runs the work; a failure keeps its error for the caller and carries `usage` to the request log. */
export async function failuresRecordedWith<T>(usage: RequestUsage, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw new FailedRequestError(error, usage);
  }
}

/** The error the caller is answered with. */
export function failureCause(error: unknown): unknown {
  return error instanceof FailedRequestError ? error.cause : error;
}

/** What a failed request is recorded with. */
export function failureUsage(error: unknown): RequestUsage {
  return error instanceof FailedRequestError ? error.usage : NO_USAGE;
}
