// Query parameters that only track the visitor; two URLs differing only in them are the same page.
const TRACKING_PARAMETER = /^(utm_[a-z]+|gclid|fbclid|dclid|msclkid|mc_cid|mc_eid|yclid|_ga|ref_src)$/i;

/**
 * The form a URL is stored under: lower-case scheme and host, no default port, no fragment, no tracking
 * parameters, sorted query. Throws on input that is not an absolute http(s) URL.
 */
export function normalizeUrl(input: string): string {
  const url = new URL(input.trim());
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`not an http(s) URL: ${input}`);
  }
  url.hash = '';
  const kept = [...url.searchParams.entries()].filter(([name]) => !TRACKING_PARAMETER.test(name));
  kept.sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0));
  url.search = new URLSearchParams(kept).toString();
  // The WHATWG parser already lower-cases the host and drops default ports.
  return url.toString();
}

/**
 * The key results are de-duplicated by: the normalised URL without scheme, "www." and trailing slash, so
 * http/https and www/non-www copies of a page count once.
 */
export function canonicalUrlKey(input: string): string {
  let normalized: string;
  try {
    normalized = normalizeUrl(input);
  } catch {
    return input.trim().toLowerCase();
  }
  const url = new URL(normalized);
  const host = url.hostname.replace(/^www\./, '');
  const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : '';
  return `${host}${url.port ? `:${url.port}` : ''}${path}${url.search}`;
}

/** The host of a URL in lower case, as stored in the document's domain column. */
export function domainOf(input: string): string {
  return new URL(input).hostname.toLowerCase();
}
