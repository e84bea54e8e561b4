import { citedClaimsOf } from './report-citations';

describe('citedClaimsOf', () => {
  it('pairs each sentence with the citations that close it, skipping headings and the source list', () => {
    const report = [
      '# How do fetch and pull differ?',
      '',
      '## What does fetch do?',
      'Fetch branches and/or tags from one or more other repositories. [1] Incorporates changes from a remote repository into the current branch [2][3].',
      '- A pull consists of a fetch followed immediately by either a merge or rebase [2, 3].',
      '',
      '## Sources',
      '[1] git-fetch(1), http://127.0.0.1:8080/git-fetch.html',
      '[2] git-pull(1), http://127.0.0.1:8080/git-pull.html',
    ].join('\n');

    expect(citedClaimsOf(report)).toEqual([
      { text: 'Fetch branches and/or tags from one or more other repositories.', sources: [1] },
      { text: 'Incorporates changes from a remote repository into the current branch', sources: [2, 3] },
      { text: 'A pull consists of a fetch followed immediately by either a merge or rebase', sources: [2, 3] },
    ]);
  });

  it('counts an uncited sentence as part of the claim the next citation supports', () => {
    expect(citedClaimsOf('An uncited opening. The cited part of the paragraph [4].')).toEqual([{ text: 'An uncited opening. The cited part of the paragraph', sources: [4] }]);
  });

  it('finds no claims in a report without citations', () => {
    expect(citedClaimsOf('Nothing here is cited.\n[1] A source list entry')).toEqual([]);
  });
});
