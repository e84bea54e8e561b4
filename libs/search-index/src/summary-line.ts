import { tokenize } from '@sift/ranking';

/** A summary is a sentence or two: long enough to say something, short enough not to be the body itself. */
const SUMMARY_MINIMUM_WORDS = 8;
const SUMMARY_MAXIMUM_CHARACTERS = 300;
/** Only the opening of a page says what it is about. */
const SUMMARY_PARAGRAPHS_READ = 5;

/**
 * What a page without a meta description says about itself: its first paragraph of sentence length among the
 * opening ones (a manual page's NAME line, an article's lead), indexed as the description field. None for a text
 * of one paragraph, whose lead would be the whole body counted twice.
 */
export function summaryLineOf(text: string): string | undefined {
  const paragraphs = text.split(/\n\s*\n/).map((paragraph) => paragraph.trim()).filter(Boolean);
  if (paragraphs.length < 2) return undefined;
  return paragraphs
    .slice(0, SUMMARY_PARAGRAPHS_READ)
    .find((paragraph) => paragraph.length <= SUMMARY_MAXIMUM_CHARACTERS && tokenize(paragraph).length >= SUMMARY_MINIMUM_WORDS);
}
