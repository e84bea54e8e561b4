// pages owns "get me this page": the page store (the tables documents, document_chunks, document_postings and
// document_links are written only here), what a stored copy may answer, and the one acquisition pipeline every
// producer of pages runs (the extractor, the crawler's crawl and map, the search's and research's fetches).
export { pageOwnerOf, viewerAccountOf, type DocumentSource, type PageOwner, type StoredPage } from './stored-page';
export { askedContentOf, storedCopyAnswers, type ContentAsked, type PageNeeds } from './stored-copy';
export { PageRepository, type PageRepositoryOptions, type SaveOptions } from './page.repository';
export { importJsonl, type ImportOptions, type ImportProgress, type ImportResult } from './import-jsonl';
export { canonicalUrlKey, domainOf, normalizeUrl } from './canonical-url';
export { languageCodeOf, searchConfigNameOf } from './language-code';
export { guessLanguage } from './language-guess';
export { countryCodeOf, countryOfHost } from './country-code';
export {
  PageAcquisition,
  type AcquiredPage,
  type AcquiredVia,
  type FetchedPage,
  type PageAcquisitionOptions,
  type PageFetcher,
  type PageRenderer,
  type PageRequest,
  STORE_WAIT_MS,
} from './acquisition/page-acquisition';
export { storedCopiesAnswering, type StoredCopiesWanted } from './acquisition/store-lookup';
export { Deadline, valueWithin } from './acquisition/deadline';
export { inlineContentParser } from './acquisition/inline-content-parser';
export {
  BINARY_CONTENT_REASON,
  ExtractionFailure,
  failureOf,
  failureReasonOf,
  noContentFailure,
  parsingFailureReason,
  timedOutReason,
  type UrlFailure,
} from './acquisition/extraction-failure';
export { needsBrowser } from './acquisition/needs-browser';
