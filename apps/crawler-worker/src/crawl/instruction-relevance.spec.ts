import { InstructionRelevance, stem } from './instruction-relevance';

describe('InstructionRelevance', () => {
  it('joins the inflections a query uses', () => {
    expect(stem('merging')).toBe(stem('merge'));
    expect(stem('branches')).toBe(stem('branch'));
    expect(stem('merged')).toBe(stem('merges'));
  });

  it('drops the words that only say how to crawl', () => {
    expect(new InstructionRelevance('Find all pages about merging branches').terms).toEqual([stem('merging'), stem('branches')]);
  });

  it('scores a link by its anchor text, URL and context', () => {
    const relevance = new InstructionRelevance('merging branches');
    const merge = relevance.scoreLink({ url: new URL('https://x.test/git-merge.html'), text: 'git-merge', context: 'Join two or more development histories' });
    const tag = relevance.scoreLink({ url: new URL('https://x.test/git-tag.html'), text: 'git-tag', context: 'Create a tag object' });
    expect(merge).toBeGreaterThan(tag);
    expect(tag).toBe(0);
  });

  it('keeps the best chunks in document order', () => {
    const relevance = new InstructionRelevance('merge');
    const content = ['Intro about cats. '.repeat(30), 'How to merge a branch. '.repeat(20), 'Outro about dogs. '.repeat(30)].join('\n\n');
    const chunks = relevance.topChunks(content, 1);
    expect(chunks).toContain('merge');
    expect(chunks).not.toContain('cats');
  });
});
