import type { CrawlResultDto, ExtractResultDto, ImageResultDto, SearchResultDto, TokenBudgetDto } from '@sift/api-contracts';
import type { WebPage } from '@sift/content-extraction';
import { fitRankedTexts } from '../http/token-budget';
import type { SourceContent } from '../search/source-content';

/** What the caller asked to see of each page besides its content. */
export interface PageExtras {
  includeImages: boolean;
  includeFavicon: boolean;
}

function extrasOf(page: Pick<WebPage, 'images' | 'favicon'>, extras: PageExtras): Pick<ExtractResultDto, 'images' | 'favicon'> {
  return {
    ...(extras.includeImages ? { images: page.images.map((image) => image.url) } : {}),
    ...(extras.includeFavicon && page.favicon ? { favicon: page.favicon } : {}),
  };
}

/** One result of POST /extract: the page under the URL as requested, with the content the caller asked for. */
export function extractResultOf(page: Pick<WebPage, 'url' | 'title' | 'images' | 'favicon'>, content: string, extras: PageExtras): ExtractResultDto {
  return { url: page.url, title: page.title || null, raw_content: content, ...extrasOf(page, extras) };
}

/** One result of POST /crawl: the page under the URL the crawl found it at (after redirects). */
export function crawlResultOf(page: Pick<WebPage, 'finalUrl' | 'images' | 'favicon'>, content: string, extras: PageExtras): CrawlResultDto {
  return { url: page.finalUrl, raw_content: content, ...extrasOf(page, extras) };
}

export interface SearchResultFields {
  id: string;
  /** The chosen chunks, joined. */
  content: string;
  score: number;
  rawContentFormat?: 'markdown' | 'text';
  /** Only news results show the published date. */
  includePublishedDate: boolean;
  includeFavicon: boolean;
  /** The result's images (described when descriptions were asked for), when images were asked for. */
  images?: string[] | ImageResultDto[];
}

/** One result of POST /search, under the candidate's URL (the one the provider listed). */
export function searchResultOf(source: SourceContent, fields: SearchResultFields): SearchResultDto {
  const { page } = source;
  const result: SearchResultDto = { id: fields.id, title: page.title, url: source.candidate.url, content: fields.content, score: fields.score };
  if (fields.rawContentFormat) result.raw_content = fields.rawContentFormat === 'text' ? page.text : page.markdown;
  if (fields.includePublishedDate && page.publishedDate) {
    result.published_date = page.publishedDate;
    if (source.publishedDateSource) result.published_date_source = source.publishedDateSource;
  }
  if (fields.includeFavicon && page.favicon) result.favicon = page.favicon;
  if (fields.images) result.images = fields.images;
  return result;
}

/** The text fields of a result the token budget cuts, in the order they are filled. */
const BUDGETED_FIELDS = ['content', 'raw_content'] as const;

/**
 * Results in rank order with their text (content, then raw_content) cut to fit `maxTokens` in all, and the count
 * reported as token_budget; the same results, untouched, without a budget.
 */
export function resultsWithinTokenBudget<Result extends { content?: string; raw_content?: string }>(
  results: Result[],
  maxTokens: number | undefined,
): { results: Result[]; tokenBudget?: TokenBudgetDto } {
  if (maxTokens === undefined) return { results };
  const fieldsOf = (result: Result) => BUDGETED_FIELDS.filter((field) => typeof result[field] === 'string');
  const fitted = fitRankedTexts(
    results.map((result) => fieldsOf(result).map((field) => result[field] as string)),
    maxTokens,
  );
  return {
    results: results.map((result, rank) => ({ ...result, ...Object.fromEntries(fieldsOf(result).map((field, index) => [field, fitted.results[rank][index]])) })),
    tokenBudget: fitted.budget,
  };
}
