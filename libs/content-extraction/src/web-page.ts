import { createHash } from 'node:crypto';
import type { WebPage } from '@sift/queue-contracts';

export type { WebPage, WebPageImage } from '@sift/queue-contracts';

/** What an extractor knows of a page; the rest has a neutral default. */
export type WebPageFields = Pick<WebPage, 'finalUrl' | 'text'> & Partial<WebPage>;

/**
 * Text as a page gives it, in Unicode's composed form (NFC, as the W3C asks of web content): the same word reads the
 * same whether its page spelled "ü" or "ü" (u and a combining diaeresis), for callers matching text and for the index.
 */
const composed = (text: string): string => text.normalize('NFC');

/**
 * The one constructor of a WebPage: url defaults to finalUrl (no redirect), title to empty, markdown to the
 * text, flags to false, lists to empty, and
 * contentHash to the sha256 of the text, as the document store has always keyed its change detection (a page
 * rebuilt from the store passes its stored hash: its text may be only what a search result shows). Title,
 * description, markdown and text are composed (NFC).
 */
export function webPageOf(fields: WebPageFields): WebPage {
  const text = composed(fields.text);
  const page: WebPage = {
    url: fields.url ?? fields.finalUrl,
    finalUrl: fields.finalUrl,
    title: composed(fields.title ?? ''),
    markdown: fields.markdown === undefined ? text : composed(fields.markdown),
    text,
    isNews: fields.isNews ?? false,
    isUnsafe: fields.isUnsafe ?? false,
    countryHints: fields.countryHints ?? [],
    images: fields.images ?? [],
    contentHash: fields.contentHash ?? contentHashOf(text),
  };
  // Absent optional fields stay absent (not undefined-valued keys): pages cross threads and queues as JSON.
  if (fields.description !== undefined) page.description = composed(fields.description);
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
