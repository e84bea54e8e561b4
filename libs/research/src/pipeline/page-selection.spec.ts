import { choosePages, fusePages, type SearchStep } from './page-selection';

const hit = (path: string) => ({ url: `https://docs.example${path}`, title: path, content: `About ${path}.`, contentIsSnippet: false, score: 0.5 });
const search = (query: string, paths: string[]): SearchStep => ({ query, hits: paths.map(hit) });
const pathsOf = (searches: SearchStep[], count: number) =>
  choosePages(fusePages(searches, []), searches, count).map((page) => new URL(page.hit.url).pathname);

describe('choosePages', () => {
  it("gives each search the page it ranked first, even when a page found by every search fuses higher", () => {
    // The overview page is second in all three searches and the workflows page third, so they fuse first; each side
    // of the comparison is first in its own search only. Taking each search's best-fused page instead gave overview,
    // workflows and merge: the rebase side was left out.
    const searches = [
      search('how do rebase and merge differ', ['/comparison', '/overview', '/workflows']),
      search('rebase integrate changes', ['/rebase', '/overview', '/workflows']),
      search('merge integrate changes', ['/merge', '/overview', '/workflows']),
    ];
    expect(pathsOf(searches, 3).sort()).toEqual(['/comparison', '/merge', '/rebase']);
    // Places left after each search's own first page go by fused rank.
    expect(pathsOf(searches, 4)).toEqual(['/overview', '/comparison', '/rebase', '/merge']);
  });

  it("takes a search's next page when its first is already chosen, and stops at count", () => {
    const searches = [search('first', ['/a', '/b']), search('second', ['/a', '/c']), search('third', ['/d'])];
    expect(pathsOf(searches, 3).sort()).toEqual(['/a', '/c', '/d']);
    expect(pathsOf(searches, 1)).toEqual(['/a']);
  });
});
