import { extractLinks, extractPage } from '@sift/content-extraction';
import type { ExtractedPage, PageExtractionOptions, PageLinks } from './crawl-dependencies';

/** One page to extract, as plain data so it crosses a thread boundary unchanged. */
export type PageExtractionTask =
  | { kind: 'page'; html: string; options: PageExtractionOptions }
  | { kind: 'links'; html: string; baseUrl: string };

export type PageExtractionResult = { kind: 'page'; page: ExtractedPage; links: PageLinks } | { kind: 'links'; links: PageLinks };

/**
 * Runs in a pool thread (or inline): content and links of a crawled page from one parse (the crawl's largest cost
 * is parsing HTML), or only the links for map. Copies out plain fields only: the extractor's objects must not
 * carry anything a structured clone would refuse or drop.
 */
export function runTask(task: PageExtractionTask): PageExtractionResult {
  if (task.kind === 'links') return { kind: 'links', links: plainLinks(extractLinks(task.html, task.baseUrl)) };
  const { content, links } = extractPage(task.html, task.options);
  return {
    kind: 'page',
    page: {
      title: content.title,
      markdown: content.markdown,
      text: content.text,
      images: content.images.map(({ url, alt }) => ({ url, alt })),
      favicon: content.favicon,
      description: content.description,
      language: content.language,
      publishedDate: content.publishedDate,
      isNewsArticle: content.isNewsArticle,
      isAdult: content.isAdult,
      contentLanguageHints: content.contentLanguageHints,
    },
    links: plainLinks(links),
  };
}

function plainLinks({ links, canonicalUrl, robotsNoFollow }: PageLinks): PageLinks {
  return {
    links: links.map(({ url, text, context, nofollow }) => ({ url, text, context, nofollow })),
    canonicalUrl,
    robotsNoFollow,
  };
}
