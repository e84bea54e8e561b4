import { removeBoilerplate } from './boilerplate-cleaner';
import { pruneContent } from './content-pruner';
import { absolutizeContentUrls } from './content-urls';
import { countryHintsOf } from './country-hints';
import { ExtractedLinks, ExtractOptions } from './extract-options';
import { elementToText } from './element-to-text';
import { faviconFromDocument } from './favicon';
import { elementToMarkdown } from './html-to-markdown';
import { collectImages } from './image-collector';
import { linksFromDocument } from './link-extractor';
import { findMainContent } from './main-content';
import { readPageMetadata } from './page-metadata';
import { documentBaseUrl, parseDocument, readJsonLd, stripNonContent } from './parse-document';
import { WebPage, webPageOf } from './web-page';

/** A page and its links from one parse, for crawlers; the links are the crawler's, not part of the page. */
export interface PageWithLinks {
  page: WebPage;
  links: ExtractedLinks;
}

function pageOfDocument(document: Document, html: string, stripped: string, options: ExtractOptions): WebPage {
  const { baseUrl } = documentBaseUrl(document, options.baseUrl);
  const metadata = readPageMetadata(document, readJsonLd(html), baseUrl);
  const favicon = faviconFromDocument(document, options.baseUrl);
  const previewImage = document.querySelector('meta[property="og:image"], meta[name="twitter:image"]')?.getAttribute('content') ?? undefined;

  const freshCleanDocument = (): Document => {
    const copy = parseDocument(stripped);
    removeBoilerplate(copy);
    return copy;
  };
  removeBoilerplate(document);
  const content = findMainContent(document, freshCleanDocument);
  if (content) {
    pruneContent(content.element);
    absolutizeContentUrls(content.element, baseUrl);
  }

  const text = content ? elementToText(content.element) : '';
  return webPageOf({
    url: options.url,
    finalUrl: options.baseUrl,
    title: metadata.title,
    description: metadata.description,
    markdown: content && options.format !== 'text' ? elementToMarkdown(content.element) : text,
    text,
    language: metadata.language,
    publishedDate: metadata.publishedDate,
    isNews: metadata.isNews,
    isUnsafe: metadata.isUnsafe,
    countryHints: countryHintsOf(metadata.contentLanguageHints),
    images: options.includeImages === false ? [] : collectImages(content?.element ?? null, previewImage, baseUrl),
    favicon,
  });
}

/** Main content of an HTML page as markdown and plain text, with its metadata, images and favicon. */
export function extractHtml(html: string, options: ExtractOptions): WebPage {
  const stripped = stripNonContent(html);
  return pageOfDocument(parseDocument(stripped), html, stripped, options);
}

/**
 * Content and links of a page from one parse, for crawlers. Links are read first: content extraction rewrites
 * the document (boilerplate removal, Readability) and would lose the navigation links a crawler follows.
 */
export function extractPage(html: string, options: ExtractOptions): PageWithLinks {
  const stripped = stripNonContent(html);
  const document = parseDocument(stripped);
  const links = linksFromDocument(document, options.baseUrl);
  return { page: pageOfDocument(document, html, stripped, options), links };
}
