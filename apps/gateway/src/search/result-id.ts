import { createHash } from 'node:crypto';
import { canonicalUrlKey } from '@sift/pages';

/**
 * A result's id: the RFC 4122 version-5 UUID of the result's canonical URL key, in the namespace of the
 * request id. Stable for (request, page), unique across requests, and recomputable by anyone holding both,
 * which is how feedback's used_ids and urls_scores[].id refer back to a result.
 */
export function searchResultId(requestId: string, url: string): string {
  const namespace = Buffer.from(requestId.replace(/-/g, ''), 'hex');
  const bytes = createHash('sha1').update(Buffer.concat([namespace, Buffer.from(canonicalUrlKey(url), 'utf8')])).digest().subarray(0, 16);
  bytes[6] = (bytes[6] & 0x0f) | 0x50;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
