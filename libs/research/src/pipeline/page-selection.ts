import { hostMatchesDomain, normalizeDomainEntry } from '@sift/search-index';
import { canonicalUrlKey } from '@sift/pages';
import type { ResearchHit } from './research-pipeline';

/** One search of the plan and what it found (after exclude_domains). */
export interface SearchStep {
  query: string;
  hits: ResearchHit[];
}

/** A page found by the searches, with the fused rank it earned across them. */
export interface FoundPage {
  hit: ResearchHit;
  score: number;
  /** The queries whose results contained it. */
  queries: string[];
  /** On one of include_domains. */
  preferred: boolean;
}

// Reciprocal rank fusion's usual constant: a page's rank matters, but being found by several queries matters more.
const FUSION_CONSTANT = 60;
// include_domains is a preference: such a page ranks as if found about twice as well, never instead of the rest.
const INCLUDED_DOMAIN_BOOST = 2;

function hostOf(url: string): string | null {
  try {
    return new URL(url).hostname.toLowerCase().replace(/\.$/, '');
  } catch {
    return null;
  }
}

function matchesAny(url: string, domains: string[]): boolean {
  const host = hostOf(url);
  return host !== null && domains.some((domain) => hostMatchesDomain(host, normalizeDomainEntry(domain)));
}

/** exclude_domains as a hard block, downward only: a listed domain blocks its subdomains, never its parent. */
export function withoutExcluded(hits: ResearchHit[], excludeDomains: string[]): ResearchHit[] {
  return hits.filter((hit) => hostOf(hit.url) !== null && !matchesAny(hit.url, excludeDomains));
}

/** Every page the searches found once, best first: fused ranks, pages of include_domains preferred. */
export function fusePages(searches: SearchStep[], includeDomains: string[]): FoundPage[] {
  const pages = new Map<string, FoundPage>();
  for (const search of searches) {
    search.hits.forEach((hit, rank) => {
      const key = canonicalUrlKey(hit.url);
      const found = pages.get(key) ?? { hit, score: 0, queries: [], preferred: false };
      // The same page may come back once with its full text and once as a snippet: keep the full text.
      if (found.hit.contentIsSnippet && !hit.contentIsSnippet) found.hit = hit;
      found.score += 1 / (FUSION_CONSTANT + rank + 1);
      found.queries.push(search.query);
      pages.set(key, found);
    });
  }
  const boosted = [...pages.values()].map((page) =>
    matchesAny(page.hit.url, includeDomains) ? { ...page, preferred: true, score: page.score * INCLUDED_DOMAIN_BOOST } : page,
  );
  return boosted.sort((left, right) => right.score - left.score);
}

/**
 * The pages to report from: each search's own best page not yet chosen first (so every part of the plan has the
 * source that search ranked first, not a page found by many searches that answers none of them best), then the best
 * of the rest by fused rank, up to `count`.
 */
export function choosePages(found: FoundPage[], searches: SearchStep[], count: number): FoundPage[] {
  const byKey = new Map(found.map((page) => [canonicalUrlKey(page.hit.url), page]));
  const chosen = new Set<FoundPage>();
  for (const search of searches) {
    if (chosen.size >= count) break;
    const best = search.hits.map((hit) => byKey.get(canonicalUrlKey(hit.url))).find((page) => page !== undefined && !chosen.has(page));
    if (best) chosen.add(best);
  }
  for (const page of found) if (chosen.size < count) chosen.add(page);
  return found.filter((page) => chosen.has(page));
}
