import { failureCodeOfStatus, type UrlFailureCode } from '@sift/queue-contracts';
import { FetchError, type FetchErrorCode } from '@sift/safe-fetch';
import type { TaskPoolError } from '@sift/task-pool';

/**
 * A per-URL problem: its message is the reason shown to the API caller in `failed_results`, its code the stable word
 * beside it (docs/errors.md).
 */
export class ExtractionFailure extends Error {
  override readonly name = 'ExtractionFailure';

  constructor(
    readonly code: UrlFailureCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** A URL's failure as the caller sees it: the reason in words and its code. */
export interface UrlFailure {
  error: string;
  errorCode: UrlFailureCode;
}

/** "Timed out after 10s", "Timed out after 1.5s": the caller's own timeout, in the unit they sent it. */
export function timedOutReason(timeoutMs: number): string {
  const seconds = Number((timeoutMs / 1000).toFixed(3));
  return `Timed out after ${seconds}s`;
}

export function timedOut(timeoutMs: number, options?: { cause?: unknown }): ExtractionFailure {
  return new ExtractionFailure('timeout', timedOutReason(timeoutMs), options);
}

/** A final error status that is not a block page: 404, 403, 429, 5xx… */
export function httpStatusFailure(status: number): ExtractionFailure {
  return new ExtractionFailure(failureCodeOfStatus(status), `HTTP ${status}`);
}

/** The page answered, but no words could be taken from it. */
export function noContentFailure(): ExtractionFailure {
  return new ExtractionFailure('empty', 'No content could be extracted from the page');
}

/** Bytes served as text (HTML, plain text, JSON) that are not text. */
export const BINARY_CONTENT_REASON = 'Unsupported content: binary data';

/** Why a document's parse was stopped before the request's own deadline (which reads "Timed out after …"). */
export function parsingFailure(error: TaskPoolError): ExtractionFailure {
  switch (error.code) {
    case 'deadline':
      return new ExtractionFailure('too_large', `Content too complex: parsing took longer than ${Number((error.limit / 1000).toFixed(3))}s`, { cause: error });
    case 'out_of_memory':
      return new ExtractionFailure('too_large', `Content too large: parsing needed more than ${error.limit} MB of memory`, { cause: error });
    // Both pass: the parsers' queue drains, and another worker takes the retry.
    case 'queue_full':
      return new ExtractionFailure('internal', 'Extractor busy: too many documents are waiting to be parsed', { cause: error });
    case 'closed':
      return new ExtractionFailure('internal', 'Extractor shutting down', { cause: error });
  }
}

export function parsingFailureReason(error: TaskPoolError): string {
  return parsingFailure(error).message;
}

function unsupportedContentReason(error: FetchError): string {
  // safe-fetch names what it received ("The resource is image/png, which cannot be read ..."); keep that part.
  const received = /^The resource is (.+?), which cannot be read/.exec(error.message)?.[1];
  if (received) return `Unsupported content type: ${received}`;
  return `Unsupported content type: ${error.message}`;
}

const FETCH_FAILURE_CODES: Record<FetchErrorCode, UrlFailureCode> = {
  invalid_url: 'invalid_url',
  blocked_address: 'not_allowed',
  timeout: 'timeout',
  too_large: 'too_large',
  unsupported_content: 'unsupported_type',
  too_many_redirects: 'bad_redirect',
  redirect_without_location: 'bad_redirect',
  dns: 'dns',
  network: 'connection',
};

function fetchFailureReason(error: FetchError, timeoutMs: number): string {
  switch (error.code) {
    case 'invalid_url':
      return `Invalid URL: ${error.message}`;
    // Tavily's wording: the caller learns the URL is refused, not which internal address it resolved to.
    case 'blocked_address':
      return 'URL is not supported';
    case 'timeout':
      return timedOutReason(timeoutMs);
    case 'too_large':
      return `Content too large: ${error.message}`;
    case 'unsupported_content':
      return unsupportedContentReason(error);
    case 'too_many_redirects':
      return 'Too many redirects';
    case 'redirect_without_location':
      return 'Redirect without a Location header';
    case 'dns':
    case 'network':
      return `Could not connect: ${error.message}`;
  }
}

/** Maps anything an extraction can throw to the reason and code the caller sees. */
export function failureOf(error: unknown, timeoutMs: number): UrlFailure {
  if (error instanceof ExtractionFailure) return { error: error.message, errorCode: error.code };
  if (error instanceof FetchError) return { error: fetchFailureReason(error, timeoutMs), errorCode: FETCH_FAILURE_CODES[error.code] };
  return { error: 'Extraction failed: internal error', errorCode: 'internal' };
}

/** The reason alone (see failureOf). */
export function failureReasonOf(error: unknown, timeoutMs: number): string {
  return failureOf(error, timeoutMs).error;
}
