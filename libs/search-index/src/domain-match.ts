import { parse } from 'tldts';

/** "https://www.Example.com/path" → "example.com": how callers' include/exclude domain entries are compared. */
export function normalizeDomainEntry(entry: string): string {
  const withoutScheme = entry.trim().toLowerCase().replace(/^[a-z][a-z0-9+.-]*:\/\//, '');
  return withoutScheme.split(/[/?#]/, 1)[0].replace(/:\d+$/, '').replace(/^www\./, '').replace(/\.$/, '');
}

/**
 * Whether an include/exclude domain entry can match a host: once normalised, a host name with at least two labels
 * ("example.com", "nhs.uk", "co.uk"), or an IP address. A single label ("edu", "tavily", "localhost") or a string
 * that is no host name ("[]", "*.edu", "a b.com") would match nothing, or every host under a top-level domain that
 * the caller did not write as such.
 */
export function isValidDomainEntry(entry: string): boolean {
  const normalized = normalizeDomainEntry(entry);
  if (normalized === '') return false;
  const parsed = parse(normalized);
  if (parsed.isIp) return true;
  return parsed.hostname === normalized && normalized.includes('.');
}

/** True when host is the domain itself or one of its subdomains. */
export function hostMatchesDomain(host: string, domain: string): boolean {
  const normalizedHost = host.toLowerCase().replace(/\.$/, '');
  return normalizedHost === domain || normalizedHost.endsWith(`.${domain}`);
}

export function hostMatchesAny(host: string, domains: string[]): boolean {
  return domains.some((domain) => hostMatchesDomain(host, domain));
}
