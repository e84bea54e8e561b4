import { canonicalUrlKey } from '@sift/pages';
import type { SearchCandidate } from './search-candidate';

export interface MergeOptions {
  /** The RRF constant: larger values flatten the advantage of top ranks. */
  rankConstant?: number;
  maxResults?: number;
}

/**
 * Reciprocal rank fusion of several providers' ranked lists, de-duplicated by canonical URL. Each list is
 * first de-duplicated on its own (best rank kept); a page found by several providers keeps the candidate with
 * full content over a snippet. The fused score is mapped into [0, 1] by dividing by the best fused score any
 * page could reach (first in every list). A single list keeps its own scores: there is nothing to fuse.
 */
export function mergeResults(lists: SearchCandidate[][], options: MergeOptions = {}): SearchCandidate[] {
  const rankConstant = options.rankConstant ?? 60;
  const nonEmpty = lists.filter((list) => list.length > 0);
  const fused = new Map<string, { candidate: SearchCandidate; fusedScore: number; bestScore: number }>();
  for (const list of nonEmpty) {
    const seenInList = new Set<string>();
    let rank = 0;
    for (const candidate of list) {
      const key = canonicalUrlKey(candidate.url);
      if (seenInList.has(key)) continue;
      seenInList.add(key);
      rank += 1;
      const contribution = 1 / (rankConstant + rank);
      const existing = fused.get(key);
      if (!existing) {
        fused.set(key, { candidate, fusedScore: contribution, bestScore: candidate.score });
        continue;
      }
      existing.fusedScore += contribution;
      existing.bestScore = Math.max(existing.bestScore, candidate.score);
      if (existing.candidate.contentIsSnippet && !candidate.contentIsSnippet) existing.candidate = candidate;
    }
  }
  const maximum = nonEmpty.length / (rankConstant + 1);
  const merged = [...fused.values()].map(({ candidate, fusedScore, bestScore }) => ({
    ...candidate,
    score: nonEmpty.length <= 1 ? bestScore : Math.min(1, fusedScore / maximum),
  }));
  merged.sort((left, right) => right.score - left.score);
  return options.maxResults === undefined ? merged : merged.slice(0, options.maxResults);
}
