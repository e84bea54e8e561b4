import { FetchError } from '@sift/safe-fetch';
import type { TaskPoolError } from '@sift/task-pool';

/** A per-URL problem whose message is the reason shown to the API caller in `failed_results`. */
export class ExtractionFailure extends Error {
  override readonly name = 'ExtractionFailure';
}

/** "Timed out after 10s", "Timed out after 1.5s": the caller's own timeout, in the unit they sent it. */
export function timedOutReason(timeoutMs: number): string {
  const seconds = Number((timeoutMs / 1000).toFixed(3));
  return `Timed out after ${seconds}s`;
}

/** Bytes served as text (HTML, plain text, JSON) that are not text. */
export const BINARY_CONTENT_REASON = 'Unsupported content: binary data';

/** Why a document's parse was stopped before the request's own deadline (which reads "Timed out after …"). */
export function parsingFailureReason(error: TaskPoolError): string {
  switch (error.code) {
    case 'deadline':
      return `Content too complex: parsing took longer than ${Number((error.limit / 1000).toFixed(3))}s`;
    case 'out_of_memory':
      return `Content too large: parsing needed more than ${error.limit} MB of memory`;
    case 'queue_full':
      return 'Extractor busy: too many documents are waiting to be parsed';
    case 'closed':
      return 'Extractor shutting down';
  }
}

function unsupportedContentReason(error: FetchError): string {
  // safe-fetch names what it received ("The resource is image/png, which cannot be read ..."); keep that part.
  const received = /^The resource is (.+?), which cannot be read/.exec(error.message)?.[1];
  if (received) return `Unsupported content type: ${received}`;
  return `Unsupported content type: ${error.message}`;
}

/** Maps anything an extraction can throw to the reason the caller sees. */
export function failureReasonOf(error: unknown, timeoutMs: number): string {
  if (error instanceof ExtractionFailure) return error.message;
  if (error instanceof FetchError) {
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
      case 'network':
        return `Could not connect: ${error.message}`;
    }
  }
  return 'Extraction failed: internal error';
}
