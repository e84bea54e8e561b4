import type { ModelsConfig } from '@sift/config';
import type { EgressPolicy, OperatorEndpointOptions } from '@sift/safe-fetch';
import { EmbeddingsClient } from './embeddings.client';
import { ModelServer } from './model-server';
import { ModelServerHealth, type ModelLog } from './model-server-health';
import { RerankClient } from './rerank.client';
import { RerankService } from './rerank.service';

/** The model clients a deployment's configuration names; each absent when its base URL is unset. */
export interface ConfiguredModels {
  embeddings?: EmbeddingsClient;
  /** How long a search waits for its query's vector (EMBEDDINGS_TIMEOUT_MS). */
  embeddingsTimeoutMs: number;
  /** Always present: without RERANK_BASE_URL it keeps every order as given. */
  reranker: RerankService;
}

export interface ConfiguredModelsOptions {
  policy: EgressPolicy;
  /** Where the first failure of an outage (and the recovery) is written. */
  log?: ModelLog;
  endpoint?: OperatorEndpointOptions;
}

/** The clients of EMBEDDINGS_* and RERANK_*; a base URL without its model name stops the process at start-up. */
export function configuredModels(config: ModelsConfig, options: ConfiguredModelsOptions): ConfiguredModels {
  if (config.EMBEDDINGS_BASE_URL && !config.EMBEDDINGS_MODEL.trim()) {
    throw new Error('EMBEDDINGS_MODEL must name the model when EMBEDDINGS_BASE_URL is set: stored vectors are recorded under it');
  }
  const serverOf = (name: 'embeddings' | 'rerank', baseUrl: string, apiKey: string) =>
    new ModelServer({ baseUrl, apiKey: apiKey || undefined, policy: options.policy, endpoint: options.endpoint }, new ModelServerHealth(name, options.log));
  const embeddings = config.EMBEDDINGS_BASE_URL
    ? new EmbeddingsClient(serverOf('embeddings', config.EMBEDDINGS_BASE_URL, config.EMBEDDINGS_API_KEY), config.EMBEDDINGS_MODEL.trim())
    : undefined;
  const reranker = config.RERANK_BASE_URL
    ? new RerankService(new RerankClient(serverOf('rerank', config.RERANK_BASE_URL, config.RERANK_API_KEY), config.RERANK_MODEL, config.RERANK_API, config.RERANK_BASE_URL), config.RERANK_TIMEOUT_MS)
    : new RerankService(undefined, config.RERANK_TIMEOUT_MS);
  return { ...(embeddings ? { embeddings } : {}), embeddingsTimeoutMs: config.EMBEDDINGS_TIMEOUT_MS, reranker };
}
