// What the extraction reads in a page's class names and texts, the same way wherever it reads them.

/**
 * The words of a class, id or role value, as templates write them: "author-bio", "entry_excerpt", "TestReport__AuthorBox"
 * (split at case changes) and "articleLead" all give their words in lower case.
 */
export function classWords(value: string): string[] {
  return value
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/);
}

/** Whether a UTF-16 code unit is white space as `\s` matches it (ASCII and Unicode spaces, line breaks, BOM). */
export function isSpace(code: number): boolean {
  if (code <= 32) return code === 32 || (code >= 9 && code <= 13);
  if (code < 0xa0) return false;
  return code === 0xa0 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) || code === 0x2028 || code === 0x2029 ||
    code === 0x202f || code === 0x205f || code === 0x3000 || code === 0xfeff;
}

/** Characters of a text without its white space (`text.replace(/\s+/g, '').length`), counted without building it. */
export function nonSpaceLength(text: string): number {
  let length = 0;
  for (let index = 0; index < text.length; index += 1) if (!isSpace(text.charCodeAt(index))) length += 1;
  return length;
}

/**
 * Characters of a text without its white space and `|` (`text.replace(/[\s|]+/g, '').length`), counted without
 * building it: content choice compares pages and sections by it, table cells' separators left out.
 */
export function squeezedLength(text: string): number {
  let length = 0;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code !== 0x7c && !isSpace(code)) length += 1;
  }
  return length;
}

/** A block whose text outside links reaches this many characters reads as prose, not as a label or a line of links. */
export const PROSE_MIN_CHARS = 200;
/** …as long as at most this share of its text is inside links. */
const PROSE_MAX_LINK_DENSITY = 0.35;

/**
 * Whether a block's text reads as prose: enough characters outside links (`minChars`, PROSE_MIN_CHARS unless the kind of
 * block asks for more) and mostly not links. One rule for boilerplate removal, which spares prose in a block whose name
 * alone does not make it furniture, and for the boxes after an article's box.
 */
export function isProseText(chars: number, inLinks: number, minChars = PROSE_MIN_CHARS): boolean {
  return chars - inLinks >= minChars && inLinks <= chars * PROSE_MAX_LINK_DENSITY;
}
