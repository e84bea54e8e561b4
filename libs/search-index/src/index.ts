// search-index owns the tables documents, document_chunks and document_postings and all SQL on them (PageRepository, LocalIndexProvider).
export type { SearchDepth, SearchQuery, SearchTopic, TimeRange } from './search-query';
export type { ImageReference, SearchCandidate } from './search-candidate';
export type { SearchProvider } from './search-provider';
export { pageOwnerOf, type DocumentSource, type PageOwner, type StoredPage } from './stored-page';
export { storedCopyAnswers, type PageNeeds } from './stored-copy';
export { PageRepository, type PageRepositoryOptions, type SaveOptions } from './page.repository';
export { LocalIndexProvider, type LocalIndexOptions } from './local-index.provider';
export { DEFAULT_BM25F, inverseDocumentFrequency, type Bm25fParameters } from './bm25f-scorer';
export { SearxngProvider, type SearxngOptions } from './searxng.provider';
export { mergeResults, type MergeOptions } from './merge-results';
export { configuredSearchProviders, SearchFanOut, type FanOutResult, type ProviderOutcome } from './search-fan-out';
export { importJsonl, type ImportOptions, type ImportProgress, type ImportResult } from './import-jsonl';
export { canonicalUrlKey, normalizeUrl } from './canonical-url';
export { languageCodeOf } from './language-code';
export { countryCodeOf } from './country-code';
export { containsQuotedPhrases, pageLanguageOf } from './content-filters';
export { hostMatchesDomain, normalizeDomainEntry } from './domain-match';
