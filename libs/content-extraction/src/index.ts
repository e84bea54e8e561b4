export type { ExtractedContent, ExtractedImage, ExtractedLink, ExtractedLinks, ExtractOptions } from './extracted-content';
export type { ExtractedPage } from './html-extractor';
export { extractHtml, extractPage } from './html-extractor';
export { extractLinks } from './link-extractor';
export { extractPdf } from './pdf-extractor';
export { extractPlainText } from './plain-text-extractor';
export { detectBlockPage } from './block-page-detector';
export { faviconFor } from './favicon';
export { decodeHtml } from './decode-html';
