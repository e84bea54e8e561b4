import { Inject, Injectable, Logger } from '@nestjs/common';
import { egressPolicyFromConfig } from '@sift/safe-fetch';
import { LocalIndexProvider, mergeResults, SearchCandidate, SearchProvider, SearchQuery, SearxngProvider } from '@sift/search-index';
import { GATEWAY_CONFIG, GatewayAppConfig } from '../core/core.module';

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
 * The providers a search asks: always the local index, and SearXNG when SEARXNG_URL is set. Their ranked lists
 * are fused with reciprocal rank fusion and de-duplicated by canonical URL. A failing provider is logged and
 * left out: the others' results still make an answer.
 */
@Injectable()
export class SearchProvidersService {
  private readonly logger = new Logger('search');
  private readonly providers: SearchProvider[];

  constructor(localIndex: LocalIndexProvider, @Inject(GATEWAY_CONFIG) config: GatewayAppConfig) {
    this.providers = [localIndex];
    if (config.SEARXNG_URL) {
      // The policy comes from the validated config, not process.env at first use, so tests and start-up agree.
      this.providers.push(new SearxngProvider({ baseUrl: config.SEARXNG_URL, policy: egressPolicyFromConfig(config) }));
    }
  }

  async search(query: SearchQuery): Promise<FanOutResult> {
    const settled = await Promise.allSettled(this.providers.map((provider) => provider.search(query)));
    const lists: SearchCandidate[][] = [];
    const outcomes: ProviderOutcome[] = [];
    settled.forEach((outcome, index) => {
      const name = this.providers[index].name;
      if (outcome.status === 'fulfilled') {
        lists.push(outcome.value);
        outcomes.push({ name, results: outcome.value.length });
      } else {
        const message = (outcome.reason as Error)?.message ?? String(outcome.reason);
        this.logger.warn(`search provider ${name} failed: ${message}`);
        outcomes.push({ name, results: 0, error: message });
      }
    });
    return { candidates: mergeResults(lists), providers: outcomes };
  }
}
