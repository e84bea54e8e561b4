import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { extractHtml, webPageOf, type WebPage } from '@sift/content-extraction';
import type { PageRepository } from './page.repository';

export interface ImportProgress {
  lines: number;
  imported: number;
  skipped: number;
}

export interface ImportOptions {
  pages: PageRepository;
  onProgress?: (progress: ImportProgress) => void;
  /** Lines between progress reports; default 100. */
  progressEvery?: number;
  /** Documents written at once; default 8. */
  concurrency?: number;
}

export interface ImportResult {
  imported: number;
  skipped: number;
}

/** One line of an import file: {url, title, text | html, published_date?, language?, news? | topic?}. */
interface ImportLine {
  url?: unknown;
  title?: unknown;
  text?: unknown;
  html?: unknown;
  published_date?: unknown;
  language?: unknown;
  /** true: the document is news (topic "news" finds it); false: it is not, even with a publish date. */
  news?: unknown;
  /** "news" is the same as news: true; any other topic as news: false. */
  topic?: unknown;
}

function optionalString(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/**
 * Whether a line's document is news: as the line says (news, or topic), else when it is dated (the line's
 * published_date, or the date its HTML states) or its HTML marks it as a news article. An operator's dated documents
 * are what a news search over their own corpus is for; a line says `"news": false` to keep a dated one out.
 */
function isNewsLine(line: ImportLine, dated: boolean, markedAsNews: boolean): boolean {
  if (typeof line.news === 'boolean') return line.news;
  if (typeof line.topic === 'string' && line.topic.trim() !== '') return line.topic.trim().toLowerCase() === 'news';
  return dated || markedAsNews;
}

/** The page a line describes, or null when it lacks a URL or any content. */
export function pageFromImportLine(line: ImportLine): WebPage | null {
  const url = optionalString(line.url);
  if (!url) return null;
  const html = optionalString(line.html);
  const text = optionalString(line.text);
  const title = optionalString(line.title);
  const publishedDate = optionalString(line.published_date);
  const language = optionalString(line.language);
  if (text) return webPageOf({ finalUrl: url, title: title ?? '', markdown: text, text, publishedDate, language, isNews: isNewsLine(line, publishedDate !== undefined, false) });
  if (!html) return null;
  const extracted = extractHtml(html, { baseUrl: url, includeImages: true });
  if (!extracted.text.trim()) return null;
  const pagePublishedDate = publishedDate ?? extracted.publishedDate;
  return {
    ...extracted,
    title: title ?? extracted.title,
    language: language ?? extracted.language,
    publishedDate: pagePublishedDate,
    isNews: isNewsLine(line, pagePublishedDate !== undefined, extracted.isNews),
  };
}

/**
 * Loads a JSONL file into the document store, where the local index picks it up. A malformed line, one
 * without URL or content, one whose URL is not http(s) or one the store does not keep (a URL over 2,000
 * characters) is skipped and counted, never fatal: self-hosters import dumps they did not write.
 */
export async function importJsonl(path: string, options: ImportOptions): Promise<ImportResult> {
  const progressEvery = options.progressEvery ?? 100;
  const concurrency = options.concurrency ?? 8;
  const progress: ImportProgress = { lines: 0, imported: 0, skipped: 0 };
  let pending: WebPage[] = [];

  const flush = async (): Promise<void> => {
    const batch = pending;
    pending = [];
    const outcomes = await Promise.allSettled(batch.map((page) => options.pages.save('operator', page, 'import')));
    for (const outcome of outcomes) {
      if (outcome.status === 'fulfilled' && outcome.value) progress.imported += 1;
      else progress.skipped += 1;
    }
  };

  const lines = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Infinity });
  for await (const raw of lines) {
    if (raw.trim() === '') continue;
    progress.lines += 1;
    let page: WebPage | null = null;
    try {
      page = pageFromImportLine(JSON.parse(raw) as ImportLine);
    } catch {
      page = null;
    }
    if (page) pending.push(page);
    else progress.skipped += 1;
    if (pending.length >= concurrency) await flush();
    if (progress.lines % progressEvery === 0) options.onProgress?.({ ...progress });
  }
  await flush();
  options.onProgress?.({ ...progress });
  return { imported: progress.imported, skipped: progress.skipped };
}
