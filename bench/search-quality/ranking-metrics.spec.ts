import { averagePrecision, ndcgAtK, precisionAtK, recallAtK, reciprocalRank } from './ranking-metrics';

describe('ranking metrics', () => {
  const judgements = new Map([
    ['a', 3],
    ['b', 1],
    ['c', 0],
  ]);

  it('gives nDCG 1 to the ideal order and less to a worse one', () => {
    expect(ndcgAtK(['a', 'b', 'c'], judgements, 10)).toBeCloseTo(1);
    const swapped = (1 + 3 / Math.log2(3)) / (3 + 1 / Math.log2(3));
    expect(ndcgAtK(['b', 'a'], judgements, 10)).toBeCloseTo(swapped);
  });

  it('counts judged-irrelevant and unjudged documents as misses', () => {
    expect(precisionAtK(['c', 'x', 'a'], judgements, 10)).toBeCloseTo(0.1);
    expect(averagePrecision(['c', 'a', 'x', 'b'], judgements)).toBeCloseTo((1 / 2 + 2 / 4) / 2);
    expect(recallAtK(['a'], judgements, 10)).toBeCloseTo(0.5);
  });

  it('gives the reciprocal rank of the first relevant result, 0 without one', () => {
    expect(reciprocalRank(['x', 'c', 'b', 'a'], judgements)).toBeCloseTo(1 / 3);
    expect(reciprocalRank(['x', 'c'], judgements)).toBe(0);
  });
});
