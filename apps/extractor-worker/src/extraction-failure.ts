import { FetchError } from '@sift/safe-fetch';

/** A per-URL problem whose message is the reason shown to the API caller in `failed_results`. */
export class ExtractionFailure extends Error {
  override readonly name = 'ExtractionFailure';
}

/** "Timed out after 10s", "Timed out after 1.5s": the caller's own timeout, in the unit they sent it. */
export function timedOutReason(timeoutMs: number): string {
  const seconds = Number((timeoutMs / 1000).toFixed(3));
  return `Timed out after ${seconds}s`;
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
