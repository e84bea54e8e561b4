/**
 * The results of this test file among a search's: integration tests share one database (sift_test), and other files
 * store shared pages with the same ordinary words, sometimes at the same time, which an OR-ranked search returns too.
 * `ownHost` is what only this file's hosts contain (their random suffix).
 */
export function ownResults<Result extends { url: string }>(results: readonly Result[], ownHost: string): Result[] {
  return results.filter((result) => new URL(result.url).hostname.includes(ownHost));
}
