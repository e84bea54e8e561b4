import { removeBoilerplate } from './boilerplate-cleaner';
import { pruneContent } from './content-pruner';
import { absolutizeContentUrls } from './content-urls';
import { ExtractedContent, ExtractedLinks, ExtractOptions } from './extracted-content';
import { elementToText } from './element-to-text';
import { faviconFromDocument } from './favicon';
import { elementToMarkdown } from './html-to-markdown';
import { collectImages } from './image-collector';
import { linksFromDocument } from './link-extractor';
import { findMainContent } from './main-content';
import { readPageMetadata } from './page-metadata';
import { documentBaseUrl, parseDocument, readJsonLd, stripNonContent } from './parse-document';

export interface ExtractedPage {
  content: ExtractedContent;
  links: ExtractedLinks;
}

function contentOfDocument(document: Document, html: string, stripped: string, options: ExtractOptions): ExtractedContent {
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
  return {
    ...metadata,
    markdown: content && options.format !== 'text' ? elementToMarkdown(content.element) : text,
    text,
    favicon,
    images: options.includeImages === false ? [] : collectImages(content?.element ?? null, previewImage, baseUrl),
  };
}

/** Main content of an HTML page as markdown and plain text, with its metadata, images and favicon. */
export function extractHtml(html: string, options: ExtractOptions): ExtractedContent {
  const stripped = stripNonContent(html);
  return contentOfDocument(parseDocument(stripped), html, stripped, options);
}

/**
 * Content and links of a page from one parse, for crawlers. Links are read first: content extraction rewrites
 * the document (boilerplate removal, Readability) and would lose the navigation links a crawler follows.
 */
export function extractPage(html: string, options: ExtractOptions): ExtractedPage {
  const stripped = stripNonContent(html);
  const document = parseDocument(stripped);
  const links = linksFromDocument(document, options.baseUrl);
  return { content: contentOfDocument(document, html, stripped, options), links };
}
