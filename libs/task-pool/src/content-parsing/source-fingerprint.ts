import { createHash } from 'node:crypto';
import { HTML_ANALYSIS_VERSION } from './content-parsing.task';

/**
 * Who made a stored page of an HTML response: the extractor (an 'html' task) or the crawler (a 'page-with-links'
 * task). Each takes back only the pages it made itself.
 */
export type PageProducer = 'extract' | 'crawl';

/**
 * The digest of an HTTP response as extraction reads it (final URL, status, and the body as decoded: the same bytes
 * under another charset are another page), of the extraction's version and of the producer: two responses of a URL with
 * the same digest make the same page (PageRepository.refetched).
 */
export function sourceFingerprintOf(producer: PageProducer, response: { finalUrl: string; status: number; text: string }): string {
  return createHash('sha256').update(`${producer}\n${HTML_ANALYSIS_VERSION}\n${response.status}\n${response.finalUrl}\n`).update(response.text).digest('hex');
}
