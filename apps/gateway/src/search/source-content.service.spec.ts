import type { DocumentSource, PageRepository, StoredPage } from '@sift/pages';
import type { JobQueue } from '@sift/queue';
import type { SearchCandidate } from '@sift/search-index';
import type { RequestContext } from '../caller/request-context';
import type { GatewayAppConfig } from '../core/core.module';
import type { ResolvedSearch } from './search-parameters';
import { SourceContentService } from './source-content.service';

// A cold first search can spend the whole budget in the providers: the local index's own candidates carry their
// content and must not come back as pages "still loading" (with an empty snippet in place of their chunks).
describe('SourceContentService', () => {
  const unused = new Proxy({}, { get: () => () => Promise.reject(new Error('not used for the local index')) });
  const service = new SourceContentService(unused as unknown as PageRepository, unused as unknown as JobQueue, { DOCUMENT_CACHE_SECONDS: 3600 } as GatewayAppConfig);
  const candidate: SearchCandidate = {
    url: 'https://guide.example/volcano',
    title: 'Volcano guide',
    content: '',
    chunks: ['Magma rises.', 'The crater erupts.'],
    contentIsSnippet: false,
    score: 0.9,
    provider: 'local',
    images: [],
  };

  it("keeps the local index's candidates with their chunks when the budget was spent before the wait began", async () => {
    const spent = Date.now() - 1;
    const outcome = await service.load({} as RequestContext, {} as ResolvedSearch, [candidate], {
      content: 'fetch',
      wanted: 1,
      answerBy: spent,
      waitForAll: false,
      fetchDeadline: spent,
    });
    expect(outcome.stillLoading).toBe(0);
    expect(outcome.sources).toEqual([expect.objectContaining({ chunks: candidate.chunks, snippetOnly: false })]);
    expect(outcome.sources[0].loading).toBeUndefined();
  });

  it("looks the upstream's candidates up in the store in one statement, and shows the copies that hold what the search needs", async () => {
    const snippet = (url: string): SearchCandidate => ({ ...candidate, url, content: 'Snippet.', chunks: undefined, contentIsSnippet: true, provider: 'searxng' });
    const stored = (url: string, source: DocumentSource): StoredPage => ({
      id: url,
      fetchedAt: new Date(),
      source,
      page: { url, finalUrl: url, title: 'Stored', text: `The stored text of ${url}.`, markdown: `The stored markdown of ${url}.`, images: [] } as unknown as StoredPage['page'],
    });
    const lookups: string[][] = [];
    const pages: Pick<PageRepository, 'getFreshMany'> = {
      getFreshMany: async (_viewer, urls) => {
        lookups.push([...urls]);
        return new Map([stored('https://a.example/', 'extract'), stored('https://b.example/', 'import')].map((copy) => [copy.page.url, copy]));
      },
    };
    const withStore = new SourceContentService(pages as PageRepository, unused as unknown as JobQueue, { DOCUMENT_CACHE_SECONDS: 3600 } as GatewayAppConfig);
    const outcome = await withStore.load({} as RequestContext, { rawContentFormat: 'markdown', includeImages: false } as ResolvedSearch, [candidate, snippet('https://a.example/'), snippet('https://b.example/'), snippet('https://c.example/')], {
      content: 'cache',
      wanted: 3,
      answerBy: Date.now() + 5_000,
      waitForAll: false,
      fetchDeadline: Date.now() + 5_000,
    });
    expect(lookups).toEqual([['https://a.example/', 'https://b.example/', 'https://c.example/']]);
    expect(outcome.fromCache).toBe(1);
    // The imported text cannot answer a search that shows markdown: that candidate keeps its snippet, as does the one not stored.
    expect(outcome.sources.map((source) => source.snippetOnly)).toEqual([false, false, true, true]);
    expect(outcome.sources[1].page.markdown).toBe('The stored markdown of https://a.example/.');
  });
});
