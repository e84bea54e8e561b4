/** "https://www.Example.com/path" → "example.com": how callers' include/exclude domain entries are compared. */
export function normalizeDomainEntry(entry: string): string {
  const withoutScheme = entry.trim().toLowerCase().replace(/^[a-z][a-z0-9+.-]*:\/\//, '');
  return withoutScheme.split(/[/?#]/, 1)[0].replace(/:\d+$/, '').replace(/^www\./, '').replace(/\.$/, '');
}

/** True when host is the domain itself or one of its subdomains. */
export function hostMatchesDomain(host: string, domain: string): boolean {
  const normalizedHost = host.toLowerCase().replace(/\.$/, '');
  return normalizedHost === domain || normalizedHost.endsWith(`.${domain}`);
}

export function hostMatchesAny(host: string, domains: string[]): boolean {
  return domains.some((domain) => hostMatchesDomain(host, domain));
}
