/** Below this many characters of extracted text, a page that ships scripts is assumed to render its content with them. */
const MINIMUM_STATIC_TEXT_CHARS = 200;

/**
 * True when the HTTP response plainly needs JavaScript: almost no text (the extracted text, or its length when only
 * the links were read), but scripts that would produce it (single-page apps, client-rendered articles and
 * documentation). Such pages are rendered even at basic depth, and in crawls and maps.
 */
export function needsBrowser(hasScripts: boolean, extractedText: string | number): boolean {
  const length = typeof extractedText === 'number' ? extractedText : extractedText.trim().length;
  if (length >= MINIMUM_STATIC_TEXT_CHARS) return false;
  return hasScripts;
}
