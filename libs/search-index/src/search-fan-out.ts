import type { EgressPolicy } from '@sift/safe-fetch';
import type { LocalIndexProvider } from './local-index.provider';
import { mergeResults } from './merge-results';
import type { SearchCandidate } from './search-candidate';
import type { SearchProvider } from './search-provider';
import type { SearchQuery } from './search-query';
import { SearxngProvider } from './searxng.provider';

/** How one provider did for one search, for the request log (a type alias, so it is a JSON value for the log's detail). */
export type ProviderOutcome = {
  name: string;
  results: number;
  error?: string;
};

export interface FanOutResult {
  candidates: SearchCandidate[];
  providers: ProviderOutcome[];
}

/**
 * The providers one search asks (POST /search and the research worker alike: the local index, and SearXNG when
 * configured). Their ranked lists are fused with reciprocal rank fusion and de-duplicated by canonical URL. A
 * failing provider is reported and left out: the others' results still make an answer.
 */
export class SearchFanOut {
  constructor(
    private readonly providers: readonly SearchProvider[],
    private readonly onProviderFailure: (name: string, message: string) => void = () => undefined,
  ) {}

  /**
   * Every provider's list, fused. A provider that has not answered by `query.deadlineMs` is reported as failed and
   * left out, whatever it waits on (SearXNG bounds its own request; the local index's Postgres queries do not), so no
   * provider holds the search past its deadline.
   */
  async search(query: SearchQuery): Promise<FanOutResult> {
    const settled = await Promise.allSettled(this.providers.map((provider) => withinDeadline(provider, query)));
    const lists: SearchCandidate[][] = [];
    const outcomes: ProviderOutcome[] = [];
    settled.forEach((outcome, index) => {
      const name = this.providers[index].name;
      if (outcome.status === 'fulfilled') {
        lists.push(outcome.value);
        outcomes.push({ name, results: outcome.value.length });
      } else {
        const message = (outcome.reason as Error)?.message ?? String(outcome.reason);
        this.onProviderFailure(name, message);
        outcomes.push({ name, results: 0, error: message });
      }
    });
    return { candidates: mergeResults(lists), providers: outcomes };
  }
}

function withinDeadline(provider: SearchProvider, query: SearchQuery): Promise<SearchCandidate[]> {
  const deadlineMs = query.deadlineMs;
  if (deadlineMs === undefined) return provider.search(query);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${provider.name} gave no answer within ${deadlineMs} ms`)), deadlineMs);
  });
  return Promise.race([provider.search(query), late]).finally(() => clearTimeout(timer));
}

/** The providers of a deployment: always the local index, and SearXNG when SEARXNG_URL is set. */
export function configuredSearchProviders(localIndex: LocalIndexProvider, config: { searxngUrl: string; policy: EgressPolicy }): SearchProvider[] {
  // The policy comes from the validated config, not process.env at first use, so tests and start-up agree.
  return config.searxngUrl ? [localIndex, new SearxngProvider({ baseUrl: config.searxngUrl, policy: config.policy })] : [localIndex];
}
