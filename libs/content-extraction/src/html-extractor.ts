import { removeBoilerplate } from './boilerplate-cleaner';
import { pruneContent } from './content-pruner';
import { absolutizeContentUrls } from './content-urls';
import { contentMarkup } from './content-markup';
import { countryHintsOf } from './country-hints';
import { DocumentTags } from './document-tags';
import { ExtractedLinks, ExtractOptions } from './extract-options';
import { elementToText } from './element-to-text';
import { faviconFromTags } from './favicon';
import { elementToMarkdown } from './html-to-markdown';
import { collectImages } from './image-collector';
import { linksFromMarkup } from './link-extractor';
import { MarkupDocument, parseMarkup } from './markup-tree';
import { findMainContent } from './main-content';
import { readPageMetadata } from './page-metadata';
import { parseDocument, readJsonLd, stripNonContent } from './parse-document';
import { WebPage, webPageOf } from './web-page';

/** A page and its links from one parse, for crawlers; the links are the crawler's, not part of the page. */
export interface PageWithLinks {
  page: WebPage;
  links: ExtractedLinks;
}

/**
 * The page from its markup tree: metadata from the whole page, then boilerplate removal on the tree, and only what
 * is left is built as a DOM for the content scorer (building the DOM is most of the cost of a parse).
 */
function pageOfMarkup(markup: MarkupDocument, tags: DocumentTags, html: string, options: ExtractOptions): WebPage {
  const { baseUrl } = tags.baseUrl(options.baseUrl);
  const metadata = readPageMetadata(tags, readJsonLd(html), baseUrl);
  const favicon = faviconFromTags(tags, options.baseUrl);
  const previewImage = tags.metas.find((meta) => meta['property'] === 'og:image' || meta['name'] === 'twitter:image')?.['content'];

  removeBoilerplate(markup);
  const cleanHtml = contentMarkup(markup);
  const content = findMainContent(parseDocument(cleanHtml), () => parseDocument(cleanHtml));
  if (content) {
    pruneContent(content);
    absolutizeContentUrls(content, baseUrl);
  }

  const text = content ? elementToText(content) : '';
  return webPageOf({
    url: options.url,
    finalUrl: options.baseUrl,
    title: metadata.title,
    description: metadata.description,
    markdown: content && options.format !== 'text' ? elementToMarkdown(content) : text,
    text,
    language: metadata.language,
    publishedDate: metadata.publishedDate,
    isNews: metadata.isNews,
    isUnsafe: metadata.isUnsafe,
    countryHints: countryHintsOf(metadata.contentLanguageHints),
    images: options.includeImages === false ? [] : collectImages(content, previewImage, baseUrl),
    favicon,
  });
}

/** Main content of an HTML page as markdown and plain text, with its metadata, images and favicon. */
export function extractHtml(html: string, options: ExtractOptions): WebPage {
  const markup = parseMarkup(stripNonContent(html));
  return pageOfMarkup(markup, new DocumentTags(markup), html, options);
}

/**
 * Content and links of a page from one parse, for crawlers. Links are read first: boilerplate removal rewrites
 * the tree and would lose the navigation links a crawler follows.
 */
export function extractPage(html: string, options: ExtractOptions): PageWithLinks {
  const markup = parseMarkup(stripNonContent(html));
  const tags = new DocumentTags(markup);
  const links = linksFromMarkup(markup, tags, options.baseUrl);
  return { page: pageOfMarkup(markup, tags, html, options), links };
}
