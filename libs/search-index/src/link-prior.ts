/**
 * The link prior's bound (advanced depth): a page many visible pages link to ranks at most 1 + LINK_WEIGHT times its
 * relevance before its site's mean divides it; 1.5, as the domain boost.
 */
export const LINK_WEIGHT = 0.5;
/** Linking pages at which the link prior gives half its bound: a handful of the site's pages pointing to one. */
export const LINK_HALF = 5;
/**
 * How many pages without links weigh in a site's mean link prior besides its own: a site of many pages is measured
 * against itself, while the one page of a site that other sites link to keeps most of its prior (1.36 of 1.5).
 */
export const SITE_LINK_PRIOR_DOCUMENTS = 5;
/** At most this many sites (those with the most pages) carry their mean link prior into a search's statement. */
export const SITE_LINK_MAXIMUM_SITES = 2000;

/**
 * The link prior of a page `linking` pages link to, as SQL over SQL operands: 1 + weight × n / (n + half). One
 * formula for the ranking (BOOST_SQL) and for the sites' means it is divided by (CorpusSnapshotCache.siteLinkPriors).
 */
export function linkPriorSql(linking: string, weight: string, half: string): string {
  return `(1 + ${weight} * ${linking} / (${linking} + ${half}))`;
}
