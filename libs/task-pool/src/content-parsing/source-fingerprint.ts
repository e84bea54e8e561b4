import { createHash } from 'node:crypto';
import type { WebPage } from '@sift/content-extraction';
import { HTML_ANALYSIS_VERSION } from './content-parsing.task';

/**
 * Who made a stored page of an HTML response: the extractor (an 'html' task) or the crawler (a 'page-with-links'
 * task). Each takes back only the pages it made itself.
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

/**
 * A page as a fetch of it produced it, and what the store is told about it (the extractor's and the crawler's one
 * shape): either the stored page, taken back for a response with the same digest (already marked fetched: nothing to
 * store), or a page made now, with the response's digest when it is what extraction made of that response alone (a 200
 * answer, no browser), so a later fetch of the same response may take it back.
 */
export type ProducedPage = { page: WebPage; reused: true } | { page: WebPage; reused?: false; sourceFingerprint?: string };

