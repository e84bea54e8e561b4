import { timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/** Compares a presented secret with the configured one in constant time. */
export function sameSecret(presented: string, expected: string): boolean {
  const given = Buffer.from(presented);
  const wanted = Buffer.from(expected);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

/**
 * Whether a request may read an operator surface guarded by `token` (/metrics with METRICS_TOKEN, the queue
 * dashboard with ADMIN_TOKEN): `Authorization: Bearer <token>`. No token configured means open.
 */
export function bearerAllowed(headers: IncomingHttpHeaders, token: string): boolean {
  if (token === '') return true;
  return sameSecret(/^Bearer (.+)$/i.exec(headers.authorization ?? '')?.[1] ?? '', token);
}
