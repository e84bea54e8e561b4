import { createHash } from 'node:crypto';
import { HTML_ANALYSIS_VERSION } from './content-parsing.task';

/**
 * Who stored a page of an HTML response: the extractor or the crawler (both through the page pipeline's one 'html'
 * parse). Each takes back only the pages it stored itself.
 */
export type PageProducer = 'extract' | 'crawl';

/** The sha256 of a response's bytes, hex: what the crawler tells duplicate pages by, and sourceFingerprintOf's part. */
export function bodyDigestOf(body: Uint8Array): string {
  return createHash('sha256').update(body).digest('hex');
}

/**
 * The digest of an HTTP response as extraction reads it (final URL, status, and the body, by its bodyDigestOf, with the
 * charset it is decoded by: the same bytes under another charset are another text), of the extraction's version and
 * of the producer: two responses of a URL with the same digest make the same page (PageRepository.refetched). The
 * body's own digest is taken once (the crawler has it already, for duplicates), and its bytes are hashed as they are,
 * not as decoded text: no copy of a page of megabytes on the event loop.
 */
export function sourceFingerprintOf(
  producer: PageProducer,
  response: { finalUrl: string; status: number; charset: string },
  bodyDigest: string,
): string {
  return createHash('sha256')
    .update(`${producer}\n${HTML_ANALYSIS_VERSION}\n${response.status}\n${response.finalUrl}\n${response.charset}\n${bodyDigest}`)
    .digest('hex');
}
