/** Below this many characters of extracted text, a page that ships scripts is assumed to render its content with them. */
const MINIMUM_STATIC_TEXT_CHARS = 200;

/**
 * True when the HTTP response plainly needs JavaScript: almost no text, but scripts that would produce it
 * (single-page apps, client-rendered articles). Such pages are retried in the browser even for basic depth.
 */
export function needsBrowser(hasScripts: boolean, extractedText: string): boolean {
  if (extractedText.trim().length >= MINIMUM_STATIC_TEXT_CHARS) return false;
  return hasScripts;
}
