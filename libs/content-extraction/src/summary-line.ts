import { countWords, segmentWords } from '@sift/ranking';

/**
 * A summary is a clause or a sentence or two: long enough to say something ("git-log - Show commit logs", five
 * words), short enough not to be the body itself. Headings are not summaries, whatever their length.
 */
const SUMMARY_MINIMUM_WORDS = 4;
const SUMMARY_MAXIMUM_CHARACTERS = 300;
/** Only the opening of a page says what it is about. */
const SUMMARY_PARAGRAPHS_READ = 5;

/**
 * What a page without a meta description says about itself: its first paragraph of summary length among the
 * opening ones that is not one of its headings (a manual page's NAME line, an article's lead), indexed as the
 * description field. None for a text of one paragraph, whose lead would be the whole body counted twice.
 */
export function summaryLineOf(text: string, headings: readonly string[] = []): string | undefined {
  const paragraphs = text.split(/\n\s*\n/).map((paragraph) => paragraph.trim()).filter(Boolean);
  if (paragraphs.length < 2) return undefined;
  const headingLines = new Set(headings.map((heading) => heading.trim()));
  return paragraphs
    .slice(0, SUMMARY_PARAGRAPHS_READ)
    .find(
      (paragraph) =>
        !headingLines.has(paragraph) && paragraph.length <= SUMMARY_MAXIMUM_CHARACTERS && countWords(segmentWords(paragraph)) >= SUMMARY_MINIMUM_WORDS,
    );
}
