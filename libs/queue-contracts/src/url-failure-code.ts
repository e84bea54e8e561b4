import { z } from 'zod';

/**
 * Why one URL could not be read, as a stable word a program can branch on (docs/errors.md). The code is decided
 * where the failure is made (safe-fetch, the page pipeline, the gateway's wait for a job) and carried unchanged to
 * the response, beside the message shown to people.
 */
export const urlFailureCodes = [
  'not_found',
  'forbidden',
  'blocked',
  'rate_limited',
  'server_error',
  'http_error',
  'timeout',
  'dns',
  'connection',
  'too_large',
  'unsupported_type',
  'empty',
  'robots',
  'not_allowed',
  'invalid_url',
  'bad_redirect',
  'internal',
] as const;

export const urlFailureCodeSchema = z.enum(urlFailureCodes);
export type UrlFailureCode = z.infer<typeof urlFailureCodeSchema>;

/** Failures that can pass on their own: the same request later may succeed. Every other code fails again. */
const RETRYABLE_FAILURES: ReadonlySet<UrlFailureCode> = new Set(['timeout', 'dns', 'connection', 'rate_limited', 'server_error', 'internal']);

export function isRetryableFailure(code: UrlFailureCode): boolean {
  return RETRYABLE_FAILURES.has(code);
}

/** The code of a final HTTP error status (4xx or 5xx) that is not a block page. */
export function failureCodeOfStatus(status: number): UrlFailureCode {
  if (status === 404 || status === 410) return 'not_found';
  if (status === 401 || status === 403) return 'forbidden';
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'server_error';
  return 'http_error';
}
