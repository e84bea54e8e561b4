// models: the operator's embedding and reranking servers (OpenAI's /embeddings, text-embeddings-inference's and
// Cohere/Jina's /rerank) behind clients whose every failure is a value the caller ranks without.
export { modelFailure, modelValue, type ModelFailure, type ModelFailureReason, type ModelOutcome } from './model-outcome';
export { modelFallbacksCounter, ModelServerHealth, type ModelLog, type ModelServerName } from './model-server-health';
export { endpointUrl, ModelServer, type ModelCallOptions, type ModelServerOptions } from './model-server';
export { EmbeddingsClient, type EmbedOptions } from './embeddings.client';
export { likelyRerankApi, RerankClient, type RerankApi, type RerankScore } from './rerank.client';
export { RerankService, type RerankedOrder } from './rerank.service';
export { configuredModels, type ConfiguredModels, type ConfiguredModelsOptions } from './configured-models';
