import type { WebPage } from '@sift/content-extraction';
import type { ContentFormat, ExtractDepth } from '@sift/queue-contracts';
import { topChunks } from '@sift/ranking';
import type { DocumentSource } from './stored-page';

/** What a request needs of a page, as far as a stored copy can supply it. */
export interface PageNeeds {
  extractDepth: ExtractDepth;
  format: ContentFormat;
  includeImages: boolean;
}

/**
 * Whether a stored copy may answer a request instead of a fetch: it answers only what it holds.
 * - An advanced extraction asks for the page as a browser renders it, and the store does not record whether a copy
 *   was rendered (basic depth, in an extraction or a crawl, renders only pages that plainly need their scripts): no stored
 *   copy answers it.
 * - An operator's import may be bare text with no HTML behind it (and the store does not record whether it had any):
 *   it answers a basic text request without images, never markdown made from HTML or the page's images.
 * - A copy the extractor or the crawler made from the site's response holds its markdown and images (both parse
 *   every page with its images, whatever the request asked): it answers any basic request.
 * Freshness and who may see a copy are the store's lookup (PageRepository.getFresh), not this rule.
 */
export function storedCopyAnswers(copy: { source: DocumentSource }, needs: PageNeeds): boolean {
  if (!someCopyMayAnswer(needs)) return false;
  if (copy.source === 'import') return needs.format === 'text' && !needs.includeImages;
  return true;
}

/** Whether any stored copy could answer (storedCopyAnswers): when none can, the store is not asked. */
export function someCopyMayAnswer(needs: PageNeeds): boolean {
  return needs.extractDepth !== 'advanced';
}

/** What an extract asks of a page: its format, and the query whose chunks it wants instead of the whole content. */
export interface ContentAsked {
  format: ContentFormat;
  query?: string;
  chunksPerSource: number;
}

/**
 * The content an extract answers with, from the page made now or its stored copy: the format asked for, or the
 * query's best chunks of it; null when the page has none (the URL then fails as having no content).
 */
export function askedContentOf(page: Pick<WebPage, 'text' | 'markdown'>, asked: ContentAsked): string | null {
  const content = asked.format === 'text' ? page.text : page.markdown;
  if (content.trim() === '') return null;
  return asked.query ? topChunks(content, asked.query, asked.chunksPerSource) : content;
}
