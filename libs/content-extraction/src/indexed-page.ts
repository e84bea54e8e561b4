import { chunkText, countWords, searchableText, titleNamesOf } from '@sift/ranking';
import { markdownHeadings } from './markdown-headings';
import { markdownLinks } from './markdown-links';
import { summaryLineOf } from './summary-line';
import type { WebPage } from './web-page';

/** What a page's index entry is made from. */
export interface IndexedPageInput {
  title: string;
  /** The page's own meta description; without one the summary line of its text stands in. */
  description?: string | null;
  markdown: string;
  text: string;
}

/** The chunks search results show, as the chunk statements take them: content, word counts, spaced content. */
export type ChunkRows = [string[], number[], Array<string | null>];

/** A page prepared for the index: every step over its whole text, done once (in a parsing thread by the workers). */
export interface IndexedPage {
  /** The description field: the page's meta description, else its summary line; null when it has neither. */
  description: string | null;
  /**
   * What sift_document_vector reads besides the body: the title, the description and the headings (one per line),
   * Chinese, Japanese and Thai cut into words; title and description are null where they need no change (the
   * statement then reads them as stored). The body is made from the chunks' vectors (migration 20261124110000).
   */
  spaced: [string | null, string | null, string];
  /**
   * The page's length for BM25: the words of its title, description and text (headings are part of the text), the
   * text's counted in its chunks, as its vector's body is made: a word the chunker cuts (a run of Chinese or Japanese
   * longer than a chunk) counts as its two halves.
   */
  wordCount: number;
  chunks: ChunkRows;
  /** The pages its content links to (markdownLinks): the store records them as the link graph the ranking reads. */
  links: string[];
  /** The names its title gives it (titleNamesOf): the ranking boosts a page the query names. */
  titleNames: string[];
}

/**
 * Postgres's text search parser reads "<style" and "<script" as the start of an HTML element whose content it skips,
 * up to the element's end tag or the end of what it parses: a page whose text mentions "<script>" (any page about
 * HTML) lost the rest of that chunk or field from its vector. A space after the "<" leaves them the words they are.
 */
const SKIPPED_ELEMENT = /<(?=\/?(?:style|script)\b)/gi;

/**
 * What to_tsvector reads for a field: its words spaced and its dotted names hyphenated (searchableText) and no element
 * the parser would skip, or null when it needs none of that (as is).
 */
function spacedForIndex(value: string): string | null {
  const spaced = searchableText(value).replace(SKIPPED_ELEMENT, '< ');
  return spaced === value ? null : spaced;
}

/**
 * A page's fields, word count and chunks as the index reads them, Chinese, Japanese and Thai cut into words. Costs time
 * linear in the text, but a lot of it for a large page in those scripts (segmenting ~10 ms per 20,000 characters:
 * seconds for a few megabytes), so the workers run it in their parsing threads, not on their event loop.
 */
/**
 * What the index reads of a page, as the store reads it (PageRepository.save): the parse that makes a page can then
 * prepare its index entry in the same thread, from the same input the store would give.
 */
export function indexedPageInputOf(page: Pick<WebPage, 'title' | 'description' | 'markdown' | 'text'>): IndexedPageInput {
  return { title: page.title.trim(), description: page.description ?? null, markdown: page.markdown || page.text, text: page.text };
}

export function indexedPageOf(input: IndexedPageInput): IndexedPage {
  const headings = markdownHeadings(input.markdown);
  const description = input.description ?? summaryLineOf(input.text, headings) ?? null;
  const chunks = chunkRowsOf(input.text);
  return { description, ...indexedFieldsOf(input.title, description, headings, chunks), chunks, links: markdownLinks(input.markdown), titleNames: titleNamesOf(input.title) };
}

/**
 * The vector's fields and the word count of a page, from its headings (markdownHeadings), description and chunks:
 * the text's words are counted in its chunks (chunkRowsOf), which cut it without overlap and between words, so the
 * text is not read into words a second time.
 */
export function indexedFieldsOf(title: string, description: string | null | undefined, headings: readonly string[], chunks: ChunkRows): Omit<IndexedPage, 'description' | 'chunks' | 'links' | 'titleNames'> {
  const headingLines = headings.join('\n');
  const spaced: IndexedPage['spaced'] = [
    spacedForIndex(title),
    description ? spacedForIndex(description) : null,
    spacedForIndex(headingLines) ?? headingLines,
  ];
  const [spacedTitle, spacedDescription] = spaced;
  const words = (spacedField: string | null, field: string) => countWords(spacedField ?? field);
  const textWords = chunks[1].reduce((sum, count) => sum + count, 0);
  return { spaced, wordCount: words(spacedTitle, title) + words(spacedDescription, description ?? '') + textWords };
}

/** A text's chunks as the chunk statements take them. */
export function chunkRowsOf(text: string): ChunkRows {
  const chunks = chunkText(text);
  const spaced = chunks.map(spacedForIndex);
  return [chunks, chunks.map((chunk, position) => countWords(spaced[position] ?? chunk)), spaced];
}
