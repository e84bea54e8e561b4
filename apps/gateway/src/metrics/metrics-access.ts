import { timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/**
 * Whether a request may read an operator surface guarded by `token` (/metrics with METRICS_TOKEN, the queue
 * dashboard with ADMIN_TOKEN): `Authorization: Bearer <token>`, compared in constant time. No token configured
 * means open.
 */
export function bearerAllowed(headers: IncomingHttpHeaders, token: string): boolean {
  if (token === '') return true;
  const presented = /^Bearer (.+)$/i.exec(headers.authorization ?? '')?.[1] ?? '';
  const expected = Buffer.from(token);
  const given = Buffer.from(presented);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
