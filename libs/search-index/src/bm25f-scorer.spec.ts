import { inverseDocumentFrequency } from './bm25f-scorer';

describe('inverseDocumentFrequency', () => {
  it('is positive and falls as a term gets commoner', () => {
    const idfs = [0, 1, 10, 99, 100].map((frequency) => inverseDocumentFrequency(frequency, 100));
    for (const idf of idfs) expect(idf).toBeGreaterThan(0);
    expect([...idfs].sort((left, right) => right - left)).toEqual(idfs);
  });

  it('takes a frequency above the page count (counted among pages stored since the count) as a term in every page', () => {
    expect(inverseDocumentFrequency(31, 5)).toBe(inverseDocumentFrequency(5, 5));
    expect(inverseDocumentFrequency(31, 5)).toBeGreaterThan(0);
    expect(inverseDocumentFrequency(3, 0)).toBeGreaterThan(0);
  });
});
