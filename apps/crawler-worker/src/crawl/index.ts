export { runCrawl } from './crawl-engine';
export { compileScopePatterns, PatternList } from './scope-patterns';
export type { ScopePatterns, ScopePatternInput } from './scope-patterns';
export { InvalidPatternError } from './invalid-pattern.error';
export { ForbiddenTargetError } from './forbidden-target.error';
export { createDefaultCrawlDependencies } from './default-crawl-dependencies';
export type { DefaultCrawlDependencyOptions } from './default-crawl-dependencies';
export { DEFAULT_CRAWL_ENGINE_SETTINGS } from './crawl-dependencies';
export type {
  CrawlDependencies,
  CrawlEngineSettings,
  CrawlRenderer,
  FetchedResource,
  FetchPurpose,
  CrawlPageRequest,
  FetchResourceOptions,
  RenderedResource,
} from './crawl-dependencies';
export { RobotsCache } from './robots-cache';
export { DEFAULT_HOST_SCHEDULER_SETTINGS, HostScheduler } from './host-scheduler';
export type { HostSchedulerSettings } from './host-scheduler';
export { HostSchedulerMetrics } from './host-scheduler-metrics';
export type { RobotsCacheOptions } from './robots-cache';
export { CRAWLER_USER_AGENT } from './robots-rules';
export type { CrawlRequest, CrawlMode } from './crawl-request';
export type { CrawlOutcome } from './crawl-outcome';
