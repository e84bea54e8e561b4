/**
 * The results of this test file among a search's: each integration test file has a database of its own, but its
 * other tests store pages with the same ordinary words, which an OR-ranked search returns too.
 * `ownHost` is what only this file's hosts contain (their random suffix).
 */
export function ownResults<Result extends { url: string }>(results: readonly Result[], ownHost: string): Result[] {
  return results.filter((result) => new URL(result.url).hostname.includes(ownHost));
}
