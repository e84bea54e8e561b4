import { InstructionRelevance, RELEVANCE_THRESHOLD, stem } from './instruction-relevance';

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

describe('InstructionRelevance.rankPages', () => {
  const filler = (words: number): string => Array.from({ length: words }, (_, position) => `filler${position % 50}`).join(' ');
  const page = (path: string, title: string, body: string, incoming?: string[]) => ({
    url: `https://docs.test/${path}`,
    title,
    content: body,
    incoming,
  });

  it('ranks a page naming every instruction word in its title above pages naming one, whatever the words’ rarity', () => {
    const relevance = new InstructionRelevance('merging branches');
    const pages = [
      // "branch" is in few titles and "merge" in many: idf over this crawl would favour the branch-only pages.
      page('branch.html', 'Branch', `Create a branch. ${filler(200)}`),
      page('show-branch.html', 'Show branch', `Show branches. ${filler(200)}`),
      page('merge-base.html', 'Merge base', `Find a merge base. ${filler(200)}`),
      page('merge-file.html', 'Merge file', `Merge a file. ${filler(200)}`),
      page('merge-tree.html', 'Merge tree', `Merge trees. ${filler(200)}`),
      page('merging-branches.html', 'Merging branches', `How to merge branches. ${filler(200)}`),
    ];
    expect(relevance.rankPages(pages)[0].url).toBe('https://docs.test/merging-branches.html');
  });

  it('prefers the page whose body uses the words together and what links to it say about it', () => {
    const relevance = new InstructionRelevance('merge branches');
    const apart = page('a.html', 'Tool A', `merge ${filler(40)} branches ${filler(40)}`);
    const together = page('b.html', 'Tool B', `merge branches ${filler(80)}`);
    expect(relevance.rankPages([apart, together])[0]).toBe(together);
    const described = page('c.html', 'Tool C', `merge ${filler(40)} branches ${filler(40)}`, ['Tool C: merge two branches']);
    expect(relevance.rankPages([apart, described])[0]).toBe(described);
  });

  it(`drops pages that match no word or score below ${RELEVANCE_THRESHOLD} of the best page`, () => {
    const relevance = new InstructionRelevance('rebase');
    const pages = [
      page('rebase.html', 'Rebase', `Rebase rebases commits. ${filler(100)}`),
      page('tag.html', 'Tag', `Create a tag. ${filler(100)}`),
      page('log.html', 'Log', `Show the log; see also rebase. ${filler(3000)}`),
    ];
    expect(relevance.rankPages(pages).map((ranked) => ranked.url)).toEqual(['https://docs.test/rebase.html']);
    expect(relevance.scorePages(pages)[1]).toBe(0);
    expect(relevance.scorePages(pages)[2]).toBeGreaterThan(0);
  });
});
