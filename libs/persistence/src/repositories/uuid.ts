const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids from outside (command line, request bodies) are checked first: Postgres rejects a malformed uuid with an error, not "no row". */
export function isUuid(value: string): boolean {
  return UUID_PATTERN.test(value);
}
