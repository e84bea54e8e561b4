import type { PageRepository } from '@sift/pages';
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
});
