export type FetchErrorCode =
  | 'invalid_url'
  | 'blocked_address'
  | 'timeout'
  | 'too_large'
  | 'unsupported_content'
  | 'too_many_redirects'
  | 'redirect_without_location'
  /** The host name did not resolve (or resolved to no address). */
  | 'dns'
  /** The connection failed, was reset or closed, or the response was cut or corrupt. */
  | 'network';

/** Every failure of the egress path, with a message that can be shown to the API caller as is. */
export class FetchError extends Error {
  override readonly name = 'FetchError';

  constructor(
    readonly code: FetchErrorCode,
    readonly url: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}
