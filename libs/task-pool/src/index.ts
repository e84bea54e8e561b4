// Worker threads with a deadline and a heap cap for work on untrusted input (parsing fetched content).
export { TaskPool, TaskPoolError, type TaskPoolErrorCode, type TaskPoolOptions, type TaskRunOptions } from './task-pool';
export { parsingLimitsOf, type ParsingSettings } from './parsing-limits';
export { ContentParsingPool, type ContentParsingPoolOptions, type ParsedPage } from './content-parsing/content-parsing-pool';
// The pool threads' function, for callers that parse inline (no pool configured: tests, one-off tools).
export { HTML_ANALYSIS_VERSION, runTask as parseContentInline, type HtmlAnalysis, type HtmlDocument } from './content-parsing/content-parsing.task';
export { bodyDigestOf, type PageProducer, sourceFingerprintOf } from './content-parsing/source-fingerprint';
