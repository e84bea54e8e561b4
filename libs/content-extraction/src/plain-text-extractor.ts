import { conventionalFavicon, WebPage, webPageOf } from './web-page';

/** text/plain and JSON bodies are their own content: passed through with the first line as title. */
export function extractPlainText(text: string, url: string, requestedUrl: string = url): WebPage {
  const normalised = text.replace(/\r\n?/g, '\n').trim();
  const firstLine = normalised.split('\n', 1)[0]?.trim() ?? '';
  return webPageOf({
    url: requestedUrl,
    finalUrl: url,
    title: firstLine.length > 0 && firstLine.length <= 200 ? firstLine : new URL(url).pathname.split('/').pop() || url,
    markdown: normalised,
    text: normalised,
    favicon: conventionalFavicon(url),
  });
}
