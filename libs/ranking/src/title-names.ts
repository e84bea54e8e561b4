import { tokenize } from './tokenize';

/**
 * Names: what a page is called, matched against what a query names. A page's names are the segments of its title
 * (split at " | ", " - ", " – ", " — " and ": ", which set a site's name or a section apart from the page's own) of two
 * to four words, without a trailing marker in parentheses such as a manual page's section, "(1)"; a query's names are
 * its runs of two to four words. Both are read into words by the shared tokenizer (tokenize) and joined by one space:
 * git-clean(1) is named "git clean", which "How do git clean and git reset --hard differ" names.
 *
 * One word is not a name: a title of one word ("git(1)", "News", "Home") would match every query that uses the word.
 */
const SEGMENT_SEPARATOR = /\s+[|\-–—]\s+|:\s+/u;
const TRAILING_MARKER = /\s*\([\p{L}\p{N}]{1,20}\)\s*$/u;
const NAME_WORDS_MINIMUM = 2;
const NAME_WORDS_MAXIMUM = 4;
/** At most this many names per page (a title is short; a hostile one may have any number of separators). */
export const MAX_TITLE_NAMES = 8;

/** The names a page's title gives it, each once, in title order, at most MAX_TITLE_NAMES. */
export function titleNamesOf(title: string): string[] {
  const names = new Set<string>();
  for (const segment of title.split(SEGMENT_SEPARATOR)) {
    const words = tokenize(segment.replace(TRAILING_MARKER, ''));
    if (words.length >= NAME_WORDS_MINIMUM && words.length <= NAME_WORDS_MAXIMUM) names.add(words.join(' '));
    if (names.size === MAX_TITLE_NAMES) break;
  }
  return [...names];
}

/** Every name a query could be naming a page by: its runs of two to four words, each once. */
export function queryNamesOf(query: string): string[] {
  const words = tokenize(query);
  const names = new Set<string>();
  for (let start = 0; start < words.length; start += 1) {
    for (let length = NAME_WORDS_MINIMUM; length <= NAME_WORDS_MAXIMUM && start + length <= words.length; length += 1) {
      names.add(words.slice(start, start + length).join(' '));
    }
  }
  return [...names];
}
