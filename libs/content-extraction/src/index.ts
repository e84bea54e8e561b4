export type { ExtractedContent, ExtractedImage, ExtractedLink, ExtractedLinks, ExtractOptions } from './extracted-content';
export { extractHtml } from './html-extractor';
export { decodeHtml } from './decode-html';
export { faviconFor } from './favicon';
