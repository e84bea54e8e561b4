import { chunkText } from './chunk-text';

const sentence = (topic: string, words: number) =>
  `${topic} ${Array.from({ length: words }, (_, index) => `word${index}`).join(' ')}.`;

describe('chunkText', () => {
  it('keeps a short text whole', () => {
    expect(chunkText('  One short paragraph.  ')).toEqual(['One short paragraph.']);
  });

  it('returns nothing for blank text', () => {
    expect(chunkText(' \n\n ')).toEqual([]);
  });

  it('never produces a chunk above the limit, whatever the input', () => {
    const text = [
      '# Heading one',
      sentence('Alpha', 60),
      sentence('Beta', 200),
      '## Heading two',
      'x'.repeat(1300),
      sentence('Gamma', 30) + ' ' + sentence('Delta', 30),
    ].join('\n\n');
    for (const limit of [50, 200, 500]) {
      const chunks = chunkText(text, limit);
      expect(chunks.length).toBeGreaterThan(1);
      for (const chunk of chunks) expect(chunk.length).toBeLessThanOrEqual(limit);
    }
  });

  it('starts a new chunk at a heading rather than mid-paragraph', () => {
    const first = sentence('First', 40);
    const second = sentence('Second', 40);
    const chunks = chunkText(`# One\n\n${first}\n\n# Two\n\n${second}`, 400);
    expect(chunks).toEqual([`# One\n\n${first}`, `# Two\n\n${second}`]);
  });

  it('packs small paragraphs together and cuts long paragraphs at sentence ends', () => {
    const chunks = chunkText('Tiny one.\n\nTiny two.\n\n' + 'This sentence is long enough. '.repeat(30), 100);
    expect(chunks[0]).toBe('Tiny one.\n\nTiny two.');
    for (const chunk of chunks.slice(1)) expect(chunk).toMatch(/^This sentence.*enough\.$/);
  });

  it('cuts a single over-long word by characters', () => {
    expect(chunkText('a'.repeat(25), 10)).toEqual(['a'.repeat(10), 'a'.repeat(10), 'a'.repeat(5)]);
  });
});
