import { Bm25Index } from './bm25-index';
import { CHUNK_SEPARATOR, rankChunks, topChunks } from './rank-chunks';
import { tokenize } from './tokenize';

describe('tokenize', () => {
  it('lower-cases Unicode words and drops punctuation', () => {
    expect(tokenize('Größe, naïve CAFÉ-au-lait; 42 हिन्दी')).toEqual(['größe', 'naïve', 'café', 'au', 'lait', '42', 'हिन्दी']);
  });
});

describe('Bm25Index', () => {
  const documents = [
    'the cat sat on the mat',
    'dogs and cats are pets',
    'the quick brown fox jumps over the lazy dog dog dog',
    'a dog',
  ].map(tokenize);
  const index = new Bm25Index(documents);

  it('ranks documents with more occurrences of a rare term higher', () => {
    const results = index.search(['dog'], 4);
    expect(results.map((result) => result.index).slice(0, 2)).toEqual([3, 2]);
    expect(results.find((result) => result.index === 0)?.score).toBe(0);
  });

  it('weighs a rare term above a common one', () => {
    expect(index.score(['fox'], 2)).toBeGreaterThan(index.score(['the'], 2));
  });

  it('saturates term frequency instead of growing linearly', () => {
    const flat = new Bm25Index([['x'], ['x', 'x', 'x', 'x', 'x', 'x', 'x', 'x'], ['y']], { b: 0 });
    expect(flat.score(['x'], 1)).toBeLessThan(2 * flat.score(['x'], 0));
  });
});

describe('rankChunks and topChunks', () => {
  const paragraphs = [
    'Paris is the capital of France and sits on the Seine.',
    'Bananas are rich in potassium and grow in tropical climates.',
    'The Eiffel Tower in Paris was built for the 1889 World Fair.',
    'Penguins live in the southern hemisphere.',
  ];

  it('puts the chunks that match the query first', () => {
    const ranking = rankChunks(paragraphs, 'Paris tower');
    expect(ranking[0].index).toBe(2);
    expect(ranking[1].index).toBe(0);
  });

  it('returns the best chunks in document order joined by the separator', () => {
    const text = paragraphs.map((paragraph) => paragraph + ' ' + 'Filler words here. '.repeat(25)).join('\n\n');
    const result = topChunks(text, 'Eiffel tower Seine', 2);
    const parts = result.split(CHUNK_SEPARATOR);
    expect(parts).toHaveLength(2);
    expect(parts[0].startsWith('Paris is the capital')).toBe(true);
    expect(parts[1].startsWith('The Eiffel Tower')).toBe(true);
    expect(CHUNK_SEPARATOR).toBe(' [...] ');
  });
});
