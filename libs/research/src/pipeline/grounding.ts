import { plainText } from '@sift/llm';

const QUOTED = /^“(.*)”$/s;
const QUOTATION_MARKS = /["“”'‘’]/g;

/** Text as a quote is compared: plain text, every quotation mark alike (a report quotes a page's quotes as single). */
function comparable(text: string): string {
  return plainText(text).replace(QUOTATION_MARKS, "'");
}

/**
 * True when the sentence (a quotation: what is between its marks) is found word for word in the source's content,
 * both read as plain text (whitespace collapsed, links by their text, emphasis and code marks dropped, quotation
 * marks alike): how an extractive report's quotes are checked.
 */
export function isGroundedIn(sentence: string, sourceContent: string): boolean {
  const quoted = comparable(sentence.trim().replace(QUOTED, '$1'));
  return quoted !== '' && comparable(sourceContent).includes(quoted);
}
