import { createHash } from 'node:crypto';
import type { WebPage } from '@sift/queue-contracts';

export type { WebPage, WebPageImage } from '@sift/queue-contracts';

/** What an extractor knows of a page; the rest has a neutral default. */
export type WebPageFields = Pick<WebPage, 'finalUrl' | 'text'> & Partial<WebPage>;

/**
 * The one constructor of a WebPage: url defaults to finalUrl (no redirect), title to empty, markdown to the
 * text, flags to false, lists to empty, and
 * contentHash to the sha256 of the text, as the document store has always keyed its change detection (a page
 * rebuilt from the store passes its stored hash: its text may be only what a search result shows).
 */
export function webPageOf(fields: WebPageFields): WebPage {
  const page: WebPage = {
    url: fields.url ?? fields.finalUrl,
    finalUrl: fields.finalUrl,
    title: fields.title ?? '',
    markdown: fields.markdown ?? fields.text,
    text: fields.text,
    isNews: fields.isNews ?? false,
    isUnsafe: fields.isUnsafe ?? false,
    countryHints: fields.countryHints ?? [],
    images: fields.images ?? [],
    contentHash: fields.contentHash ?? contentHashOf(fields.text),
  };
  // Absent optional fields stay absent (not undefined-valued keys): pages cross threads and queues as JSON.
  if (fields.description !== undefined) page.description = fields.description;
  if (fields.language !== undefined) page.language = fields.language;
  if (fields.publishedDate !== undefined) page.publishedDate = fields.publishedDate;
  if (fields.favicon !== undefined) page.favicon = fields.favicon;
  return page;
}

export function contentHashOf(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** Where browsers look for a site's icon when a page declares none: `${origin}/favicon.ico`. */
export function conventionalFavicon(url: string): string | undefined {
  try {
    return new URL('/favicon.ico', url).toString();
  } catch {
    return undefined;
  }
}
