import { mergeResults } from './merge-results';
import type { SearchCandidate } from './search-candidate';

function candidate(url: string, provider: string, score: number, contentIsSnippet = provider !== 'local'): SearchCandidate {
  return { url, title: url, content: `${provider} content`, contentIsSnippet, score, provider, images: [] };
}

describe('mergeResults', () => {
  it('fuses ranks so a page found by both providers wins, de-duplicated by canonical URL', () => {
    const local = [candidate('https://a.example/x', 'local', 0.9), candidate('https://b.example/', 'local', 0.5)];
    const web = [candidate('https://c.example/', 'searxng', 1), candidate('http://www.b.example', 'searxng', 0.8)];
    const merged = mergeResults([local, web]);
    expect(merged.map((result) => result.url)).toEqual(['https://b.example/', 'https://a.example/x', 'https://c.example/']);
    // The stored page's full content beats the upstream snippet.
    expect(merged[0]).toMatchObject({ provider: 'local', contentIsSnippet: false });
    for (const result of merged) {
      expect(result.score).toBeGreaterThan(0);
      expect(result.score).toBeLessThanOrEqual(1);
    }
  });

  it('keeps a single list in order with its own scores, minus duplicates', () => {
    const merged = mergeResults([
      [candidate('https://a.example/x?utm_source=x', 'local', 0.9), candidate('https://a.example/x', 'local', 0.4), candidate('https://d.example/', 'local', 0.3)],
      [],
    ]);
    expect(merged.map((result) => [result.url, result.score])).toEqual([
      ['https://a.example/x?utm_source=x', 0.9],
      ['https://d.example/', 0.3],
    ]);
  });

  it('caps the merged list at maxResults', () => {
    const list = [1, 2, 3].map((index) => candidate(`https://${index}.example/`, 'local', 1 / index));
    expect(mergeResults([list], { maxResults: 2 })).toHaveLength(2);
  });
});
