import { timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/** Compares a presented secret with the configured one in constant time. */
export function sameSecret(presented: string, expected: string): boolean {
  const given = Buffer.from(presented);
  const wanted = Buffer.from(expected);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

/**
 * The operator credential a request presents: `Authorization: Bearer <token>`, or Basic with the token as password
 * (what a browser sends after asking for it; the user name is not read).
 */
export function presentedOperatorSecret(headers: IncomingHttpHeaders): string | undefined {
  const authorization = headers.authorization ?? '';
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1];
  if (bearer !== undefined) return bearer;
  const basic = /^Basic\s+(\S+)\s*$/i.exec(authorization)?.[1];
  if (basic === undefined) return undefined;
  const decoded = Buffer.from(basic, 'base64').toString('utf8');
  return decoded.slice(decoded.indexOf(':') + 1);
}

/** Whether a request carries ADMIN_TOKEN `token` (presentedOperatorSecret); never with no token configured. */
export function operatorAllowed(headers: IncomingHttpHeaders, token: string): boolean {
  const presented = presentedOperatorSecret(headers);
  return token !== '' && presented !== undefined && sameSecret(presented, token);
}

/**
 * Whether a request may read /metrics guarded by METRICS_TOKEN `token`: `Authorization: Bearer <token>`. No token
 * configured means open.
 */
export function bearerAllowed(headers: IncomingHttpHeaders, token: string): boolean {
  if (token === '') return true;
  return sameSecret(/^Bearer (.+)$/i.exec(headers.authorization ?? '')?.[1] ?? '', token);
}
