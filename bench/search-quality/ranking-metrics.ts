/** Graded judgements of one query: corpus id → gain (0 = judged not relevant). */
export type Judgements = Map<string, number>;

/** nDCG@k with linear gains; the ideal ranking is the query's judged gains in descending order. */
export function ndcgAtK(ranked: string[], judgements: Judgements, k: number): number {
  const dcg = ranked.slice(0, k).reduce((sum, id, index) => sum + (judgements.get(id) ?? 0) / Math.log2(index + 2), 0);
  const ideal = [...judgements.values()]
    .sort((left, right) => right - left)
    .slice(0, k)
    .reduce((sum, gain, index) => sum + gain / Math.log2(index + 2), 0);
  return ideal > 0 ? dcg / ideal : 0;
}

/** Average precision over the ranking given (binary relevance: gain > 0), divided by all relevant documents. */
export function averagePrecision(ranked: string[], judgements: Judgements): number {
  const relevantTotal = [...judgements.values()].filter((gain) => gain > 0).length;
  if (relevantTotal === 0) return 0;
  let found = 0;
  let sum = 0;
  ranked.forEach((id, index) => {
    if ((judgements.get(id) ?? 0) > 0) {
      found += 1;
      sum += found / (index + 1);
    }
  });
  return sum / relevantTotal;
}

export function precisionAtK(ranked: string[], judgements: Judgements, k: number): number {
  return ranked.slice(0, k).filter((id) => (judgements.get(id) ?? 0) > 0).length / k;
}

export function recallAtK(ranked: string[], judgements: Judgements, k: number): number {
  const relevantTotal = [...judgements.values()].filter((gain) => gain > 0).length;
  if (relevantTotal === 0) return 0;
  return ranked.slice(0, k).filter((id) => (judgements.get(id) ?? 0) > 0).length / relevantTotal;
}

/** 1 / the rank of the first relevant result (gain > 0), 0 when none is ranked. */
export function reciprocalRank(ranked: string[], judgements: Judgements): number {
  const position = ranked.findIndex((id) => (judgements.get(id) ?? 0) > 0);
  return position < 0 ? 0 : 1 / (position + 1);
}

/** The mean of the per-query figures (0 for none). */
export function mean(values: number[]): number {
  return values.length ? values.reduce((sum, value) => sum + value, 0) / values.length : 0;
}
