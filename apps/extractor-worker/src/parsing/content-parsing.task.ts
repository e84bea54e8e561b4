import { extractHtml, extractPdf, extractPlainText, type WebPage } from '@sift/content-extraction';

/** One fetched document to turn into a WebPage, as plain data so it crosses a thread boundary unchanged. */
export type ContentParsingTask =
  | { kind: 'html'; html: string; baseUrl: string; url: string; includeImages: boolean }
  | { kind: 'pdf'; data: Uint8Array; url: string; requestedUrl: string; maxPages: number }
  | { kind: 'text'; text: string; url: string; requestedUrl: string };

/**
 * Runs in a parsing thread: untrusted bytes in, a WebPage out. Copies out plain fields only: the extractor's
 * objects must not carry anything a structured clone would refuse or drop.
 */
export async function runTask(task: ContentParsingTask): Promise<WebPage> {
  switch (task.kind) {
    case 'html':
      return plainPage(extractHtml(task.html, { baseUrl: task.baseUrl, url: task.url, includeImages: task.includeImages }));
    case 'pdf':
      return plainPage(await extractPdf(task.data, task.url, task.requestedUrl, { maxPages: task.maxPages }));
    case 'text':
      return plainPage(extractPlainText(task.text, task.url, task.requestedUrl));
  }
}

function plainPage(page: WebPage): WebPage {
  return { ...page, images: page.images.map(({ url, alt }) => ({ url, alt })), countryHints: [...page.countryHints] };
}
