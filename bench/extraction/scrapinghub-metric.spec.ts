import { scoreCorpus, scorePage } from './scrapinghub-metric';
import { scoreSegmentCorpus, scoreSegments } from './trafilatura-metric';

describe('ScrapingHub shingle metric', () => {
  it('scores an exact extraction 1 and extra text as lost precision', () => {
    expect(scoreCorpus([scorePage('one two three four five', 'one two three four five')]).f1).toBe(1);
    const noisy = scorePage('one two three four five', 'menu items one two three four five');
    expect(scoreCorpus([noisy]).recall).toBe(1);
    expect(scoreCorpus([noisy]).precision).toBeLessThan(1);
  });

  it('scores an empty extraction 0', () => {
    expect(scoreCorpus([scorePage('one two three four', '')]).f1).toBe(0);
  });
});

describe('trafilatura segment metric', () => {
  it('counts wanted segments found and unwanted segments found after whitespace normalisation', () => {
    const counts = scoreSegments('Main  text\nhere. Read more: other', ['Main text here.', 'missing'], ['Read more: other', 'absent']);
    expect(counts).toEqual({ tp: 1, fn: 1, fp: 1, tn: 1 });
    expect(scoreSegmentCorpus([counts]).f1).toBeCloseTo(0.5);
  });
});
