import { webPageOf } from '@sift/content-extraction';
import { chunkSources, sourceChunks } from './result-chunks';
import type { SourceContent } from './source-content';

/** A fetched page of paragraphs each too long to share a chunk with the next. */
function fetched(url: string, paragraphs: string[]): SourceContent {
  const text = paragraphs.map((paragraph) => paragraph.padEnd(300, ' filler')).join('\n\n');
  return {
    candidate: { url, title: url, content: 'snippet', contentIsSnippet: true, score: 1, provider: 'searxng', images: [] },
    page: webPageOf({ url, finalUrl: url, title: url, text, markdown: text }),
    snippetOnly: false,
    filteredAtSource: false,
  };
}

const page = fetched('https://example.com/guide', ['Installing the tool.', 'Configuring the tool for a team.', 'Copy one change onto another branch.', 'Upgrading.']);
const options = { query: 'graft revision', chunksPerSource: 1, crossSource: false };
const firstWords = (chunks: string[]) => chunks.map((chunk) => chunk.split(' filler')[0]);

describe('choosing a page’s chunks with the model’s similarities', () => {
  it('keeps the words’ choice without similarities: the page’s first chunk when no chunk holds a query word', () => {
    expect(firstWords(chunkSources([page], options)[0].chunks)).toEqual(['Installing the tool.']);
  });

  it('chooses the chunk nearest in meaning when no chunk holds a query word', () => {
    const similarities = [new Map([[0, 0.1], [1, 0.2], [2, 0.9], [3, 0.05]])];
    expect(firstWords(chunkSources([page], options, sourceChunks([page], options), similarities)[0].chunks)).toEqual(['Copy one change onto another branch.']);
  });

  it('fuses the two rankings: a chunk both holding a query word and near beats one only near', () => {
    const query = { ...options, query: 'configuring branch copy' };
    // "Upgrading" is nearer than "Configuring" but holds no query word; "Configuring" holds one, "Copy … branch" two.
    const similarities = [new Map([[0, 0.1], [1, 0.5], [2, 0.9], [3, 0.6]])];
    expect(firstWords(chunkSources([page], query)[0].chunks)).toEqual(['Copy one change onto another branch.']);
    expect(firstWords(chunkSources([page], { ...query, chunksPerSource: 2 }, sourceChunks([page], query), similarities)[0].chunks)).toEqual([
      'Configuring the tool for a team.',
      'Copy one change onto another branch.',
    ]);
  });

  it('ranks across pages with relevance in [0, 1], the best page’s best chunk at 1', () => {
    const other = fetched('https://example.com/other', ['Unrelated cooking notes.', 'More cooking.']);
    const cross = { ...options, crossSource: true };
    const similarities = [new Map([[2, 0.9]]), new Map([[0, 0.2]])];
    const chunked = chunkSources([page, other], cross, sourceChunks([page, other], cross), similarities);
    expect(firstWords(chunked[0].chunks)).toEqual(['Copy one change onto another branch.']);
    expect(chunked[0].chunkRelevance).toBe(1);
    expect(chunked[1].chunkRelevance).toBeGreaterThan(0);
    expect(chunked[1].chunkRelevance).toBeLessThan(1);
  });
});
