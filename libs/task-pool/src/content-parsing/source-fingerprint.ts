import { createHash } from 'node:crypto';
import { HTML_ANALYSIS_VERSION } from './content-parsing.task';

/**
 * Who made a stored page of an HTML response: the extractor (an 'html' task) or the crawler (a 'page-with-links'
 * task). Each takes back only the pages it made itself.
 */
export type PageProducer = 'extract' | 'crawl';

/**
 * The digest of an HTTP response as extraction reads it (final URL, status, and the body with the charset it is
 * decoded by: the same bytes under another charset are another text), of the extraction's version and of the
 * producer: two responses of a URL with the same digest make the same page (PageRepository.refetched). The bytes are
 * hashed as they are, not the decoded text: no copy of a page of megabytes on the event loop.
 */
export function sourceFingerprintOf(
  producer: PageProducer,
  response: { finalUrl: string; status: number; charset: string; body: Uint8Array },
): string {
  return createHash('sha256')
    .update(`${producer}\n${HTML_ANALYSIS_VERSION}\n${response.status}\n${response.finalUrl}\n${response.charset}\n`)
    .update(response.body)
    .digest('hex');
}
