/** Longest X-Request-Id honoured; longer ones (or ones with control characters, spaces, non-ASCII) are replaced. */
export const MAX_REQUEST_ID_LENGTH = 200;

const PRINTABLE_ID = new RegExp(`^[\\x21-\\x7e]{1,${MAX_REQUEST_ID_LENGTH}}$`);

/**
 * The caller's (or its proxy's) X-Request-Id when it is safe to echo and to write into log lines: visible ASCII,
 * at most 200 characters. Anything else is ignored and the gateway's own id is used.
 */
export function honouredRequestId(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  return value !== undefined && PRINTABLE_ID.test(value) ? value : undefined;
}
