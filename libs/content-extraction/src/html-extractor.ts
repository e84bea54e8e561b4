import { removeBoilerplate } from './boilerplate-cleaner';
import { absolutizeContentUrls } from './content-urls';
import { ExtractedContent, ExtractOptions } from './extracted-content';
import { faviconFromDocument } from './favicon';
import { htmlToMarkdown } from './html-to-markdown';
import { collectImages } from './image-collector';
import { findMainContent } from './main-content';
import { readPageMetadata } from './page-metadata';
import { documentBaseUrl, parseDocument, readJsonLd, stripNonContent } from './parse-document';

/** Main content of an HTML page as markdown and plain text, with its metadata, images and favicon. */
export function extractHtml(html: string, options: ExtractOptions): ExtractedContent {
  const stripped = stripNonContent(html);
  const document = parseDocument(stripped);
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
  if (content) absolutizeContentUrls(content.element, baseUrl);

  const text = content?.text ?? '';
  return {
    ...metadata,
    markdown: content && options.format !== 'text' ? htmlToMarkdown(content.element.innerHTML) : text,
    text,
    favicon,
    images: options.includeImages === false ? [] : collectImages(content?.element ?? null, previewImage, baseUrl),
  };
}
