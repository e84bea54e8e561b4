// Statuses that mean "you were refused", whatever the body says: their pages are never content.
const REFUSAL_STATUSES: Record<number, string> = {
  401: 'authentication required (HTTP 401)',
  403: 'access forbidden (HTTP 403)',
  429: 'rate limited (HTTP 429)',
  503: 'service unavailable or bot challenge (HTTP 503)',
};

const CHALLENGE_TITLES: [RegExp, string][] = [
  [/^just a moment\.*$/i, 'Cloudflare browser challenge'],
  [/^attention required!? \| cloudflare$/i, 'Cloudflare block page'],
  [/^(access denied|access to this page has been denied\.?)$/i, 'access denied page'],
  [/^(are you a robot\??|robot check|human verification|verify you are human)$/i, 'captcha wall'],
  [/^(too many requests|rate limit(ed)?)$/i, 'rate limit page'],
];

// Markers of challenge and captcha interstitials. They only count on a short page: a real article may embed a
// captcha in its comment form.
const CHALLENGE_MARKERS: [RegExp, string][] = [
  [/cf-browser-verification|challenge-platform|_cf_chl_opt|cf-challenge|cf_chl_/i, 'Cloudflare browser challenge'],
  [/captcha-delivery\.com|geo\.captcha-delivery/i, 'DataDome captcha wall'],
  [/px-captcha|perimeterx|_pxhd/i, 'PerimeterX captcha wall'],
  [/class=["'][^"']*\b(g-recaptcha|h-captcha|cf-turnstile)\b/i, 'captcha wall'],
  [/verify (that )?you are (a )?human|are you a robot|unusual traffic from your (computer )?network|enable javascript and cookies to continue/i, 'captcha wall'],
];

const SHORT_PAGE_TEXT_CHARS = 1500;

const NON_CONTENT_BLOCKS = /<(script|style|noscript|template)\b[^>]*>[\s\S]*?<\/\1\s*>/gi;
const NON_CONTENT_START = /<(script|style|noscript|template)\b/i;
/** The first piece of a page read for its visible text; each further piece is four times the one before. */
const FIRST_PIECE_CHARS = 32_768;

function visibleTextLength(html: string): number {
  return html
    .replace(NON_CONTENT_BLOCKS, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim().length;
}

/**
 * Whether a page shows more than `limit` characters of visible text, reading of a long page only as much as it takes
 * to tell: every page judged (each crawled page as well as each extracted one) is a long content page far more often
 * than a challenge. A beginning of the page cut where a script, style or similar block is left open, and before a tag
 * cut in half, shows no more text than the whole page does, so its count deciding "more" is the whole page's answer.
 */
function showsMoreTextThan(html: string, limit: number): boolean {
  for (let size = FIRST_PIECE_CHARS; ; size *= 4) {
    if (size >= html.length) return visibleTextLength(html) > limit;
    let piece = html.slice(0, size).replace(NON_CONTENT_BLOCKS, ' ');
    const open = piece.search(NON_CONTENT_START);
    if (open !== -1) piece = piece.slice(0, open);
    const lastTag = piece.lastIndexOf('<');
    if (lastTag > piece.lastIndexOf('>')) piece = piece.slice(0, lastTag);
    if (visibleTextLength(piece) > limit) return true;
  }
}

/**
 * The reason detectBlockPage gives for a refusal status whatever the page shows: a caller telling "the status
 * refused" (401, 403, 429, 503) from "the page is a challenge" compares the two.
 */
export function refusalStatusReason(status: number): string | undefined {
  return REFUSAL_STATUSES[status];
}

/** Why a response is a block, challenge or captcha page rather than content, or null when it is real content. */
export function detectBlockPage(input: { status: number; html: string; title?: string }): string | null {
  const refusal = REFUSAL_STATUSES[input.status];
  if (refusal) return refusal;
  const title = (input.title ?? /<title[^>]*>([\s\S]*?)<\/title>/i.exec(input.html)?.[1] ?? '').replace(/\s+/g, ' ').trim();
  for (const [pattern, reason] of CHALLENGE_TITLES) if (pattern.test(title)) return reason;
  if (showsMoreTextThan(input.html, SHORT_PAGE_TEXT_CHARS)) return null;
  for (const [pattern, reason] of CHALLENGE_MARKERS) if (pattern.test(input.html)) return reason;
  return null;
}
