import { ExtractedContent } from './extracted-content';

/** text/plain and JSON bodies are their own content: passed through with the first line as title. */
export function extractPlainText(text: string, url: string): ExtractedContent {
  const normalised = text.replace(/\r\n?/g, '\n').trim();
  const firstLine = normalised.split('\n', 1)[0]?.trim() ?? '';
  return {
    title: firstLine.length > 0 && firstLine.length <= 200 ? firstLine : new URL(url).pathname.split('/').pop() || url,
    markdown: normalised,
    text: normalised,
    images: [],
    isNewsArticle: false,
    isAdult: false,
    contentLanguageHints: [],
  };
}
