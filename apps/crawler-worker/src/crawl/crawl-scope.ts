import { ScopePatterns } from './scope-patterns';

/** Decides which discovered URLs a crawl may follow: the caller's patterns plus the external-link rule. */
export class CrawlScope {
  private readonly rootSite: string;

  constructor(
    root: URL,
    private readonly patterns: ScopePatterns,
    private readonly allowExternal: boolean,
  ) {
    this.rootSite = siteOf(root.hostname);
  }

  /** The root's host, `www.` ignored, and its subdomains count as internal. */
  isInternal(url: URL): boolean {
    const host = siteOf(url.hostname);
    return host === this.rootSite || host.endsWith(`.${this.rootSite}`);
  }

  allows(url: URL): boolean {
    if (!this.allowExternal && !this.isInternal(url)) return false;
    const { selectPaths, selectDomains, excludePaths, excludeDomains } = this.patterns;
    if (!selectDomains.isEmpty && !selectDomains.matchesAny(url.hostname)) return false;
    if (excludeDomains.matchesAny(url.hostname)) return false;
    if (!selectPaths.isEmpty && !selectPaths.matchesAny(url.pathname)) return false;
    if (excludePaths.matchesAny(url.pathname)) return false;
    return true;
  }
}

function siteOf(hostname: string): string {
  return hostname.toLowerCase().replace(/^www\./, '');
}
