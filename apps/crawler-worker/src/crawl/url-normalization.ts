const DIRECTORY_INDEX = /\/(?:index|default)\.(?:html?|php|aspx?)$/i;

/**
 * Resolves a link to an absolute http(s) URL without its fragment; WHATWG URL parsing already lower-cases the
 * host and drops default ports. Returns undefined for anything a crawler cannot fetch (mailto:, javascript:, …).
 */
export function toCrawlableUrl(raw: string, base?: string): URL | undefined {
  let url: URL;
  try {
    url = new URL(raw.trim(), base);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (url.username || url.password) return undefined;
  url.hash = '';
  return url;
}

/**
 * The identity of a page for de-duplication: `/docs/`, `/docs` and `/docs/index.html` are one page, and the
 * scheme is ignored because sites commonly serve both.
 */
export function pageKey(url: URL): string {
  let pathname = url.pathname.replace(DIRECTORY_INDEX, '/');
  if (pathname.length > 1 && pathname.endsWith('/')) pathname = pathname.slice(0, -1);
  return `${url.host}${pathname}${url.search}`;
}

/** A root URL as callers write it: `docs.example.com/guide` means https. */
export function parseRootUrl(raw: string): URL | undefined {
  const trimmed = raw.trim();
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`;
  return toCrawlableUrl(withScheme);
}
