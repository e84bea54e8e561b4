import { extractLinks, extractPage, type ExtractedLinks, type PageWithLinks } from '@sift/content-extraction';
import type { PageExtractionOptions } from './crawl-dependencies';

/** One page to extract, as plain data so it crosses a thread boundary unchanged. */
export type PageExtractionTask =
  | { kind: 'page'; html: string; options: PageExtractionOptions }
  | { kind: 'links'; html: string; baseUrl: string };

export type PageExtractionResult = ({ kind: 'page' } & PageWithLinks) | { kind: 'links'; links: ExtractedLinks };

/**
 * Runs in a pool thread (or inline): content and links of a crawled page from one parse (the crawl's largest cost
 * is parsing HTML), or only the links for map. Copies out plain fields only: the extractor's objects must not
 * carry anything a structured clone would refuse or drop.
 */
export function runTask(task: PageExtractionTask): PageExtractionResult {
  if (task.kind === 'links') return { kind: 'links', links: plainLinks(extractLinks(task.html, task.baseUrl)) };
  const { page, links } = extractPage(task.html, task.options);
  return {
    kind: 'page',
    page: { ...page, images: page.images.map(({ url, alt }) => ({ url, alt })), countryHints: [...page.countryHints] },
    links: plainLinks(links),
  };
}

function plainLinks({ links, canonicalUrl, robotsNoFollow }: ExtractedLinks): ExtractedLinks {
  return {
    links: links.map(({ url, text, context, nofollow }) => ({ url, text, context, nofollow })),
    canonicalUrl,
    robotsNoFollow,
  };
}
