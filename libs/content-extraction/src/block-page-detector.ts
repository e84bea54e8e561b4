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

function visibleTextLength(html: string): number {
  return html
    .replace(/<(script|style|noscript|template)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim().length;
}

/** Why a response is a block, challenge or captcha page rather than content, or null when it is real content. */
export function detectBlockPage(input: { status: number; html: string; title?: string }): string | null {
  const refusal = REFUSAL_STATUSES[input.status];
  if (refusal) return refusal;
  const title = (input.title ?? /<title[^>]*>([\s\S]*?)<\/title>/i.exec(input.html)?.[1] ?? '').replace(/\s+/g, ' ').trim();
  for (const [pattern, reason] of CHALLENGE_TITLES) if (pattern.test(title)) return reason;
  if (visibleTextLength(input.html) > SHORT_PAGE_TEXT_CHARS) return null;
  for (const [pattern, reason] of CHALLENGE_MARKERS) if (pattern.test(input.html)) return reason;
  return null;
}
