/** The crawl's root URL is not a destination the egress policy allows; the gateway answers it with 403. */
export class ForbiddenTargetError extends Error {
  constructor(
    readonly url: string,
    reason: string,
  ) {
    super(`URL is not supported: ${reason}`);
    this.name = 'ForbiddenTargetError';
  }
}
