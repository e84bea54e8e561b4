/**
 * A request to `host` would not be answered before the crawl's deadline (its expected latency, or a Crawl-delay or
 * Retry-After wait, runs past it), so it was not sent: the page is left out, not failed.
 */
export class TooLateToStartError extends Error {
  constructor(readonly host: string) {
    super(`No time left before the crawl's deadline for a request to ${host}`);
    this.name = 'TooLateToStartError';
  }
}
