import type { SearchDepth, SearchTopic } from '@sift/api-contracts';

export type LongTimeRange = 'day' | 'week' | 'month' | 'year';

/** What auto_parameters reads from a query; each field only when the query says something about it. */
export interface InferredParameters {
  topic: SearchTopic;
  searchDepth: SearchDepth;
  timeRange?: LongTimeRange;
}

const FINANCE = /\b(stocks?|shares?|share price|stock price|earnings|dividends?|market cap|nasdaq|nyse|ticker|ipo|quarterly results|revenue|bonds?|etfs?|crypto(currency)?|bitcoin)\b|\$[A-Z]{1,5}\b/i;
const NEWS = /\b(news|latest|breaking|headlines?|announced|announcement|today|yesterday|this week|this month)\b/i;
const TIME_WORDS: [RegExp, LongTimeRange][] = [
  [/\b(today|yesterday|past 24 hours|last 24 hours|breaking)\b/i, 'day'],
  [/\b(this|past|last) week\b/i, 'week'],
  [/\b(this|past|last) month\b/i, 'month'],
  [/\b(this|past|last) year\b/i, 'year'],
];
// Questions that need several sources read closely: a comparison, an explanation, an analysis.
const NEEDS_DEPTH = /\b(compare|comparison|versus|vs\.?|difference between|differences|explain|why|how does|how do|analysis|analyse|analyze|in-depth|comprehensive|pros and cons|trade-?offs?)\b/i;
const LONG_QUERY_WORDS = 10;

/**
 * auto_parameters: topic, time range and depth from the words of the query. Deliberately simple and
 * predictable (a caller can read why a value was chosen); explicit request values override all of it.
 */
export function inferParameters(query: string, now: Date = new Date()): InferredParameters {
  const topic: SearchTopic = FINANCE.test(query) ? 'finance' : NEWS.test(query) ? 'news' : 'general';
  let timeRange = TIME_WORDS.find(([pattern]) => pattern.test(query))?.[1];
  // A query naming the current year asks about this year's events.
  if (!timeRange && new RegExp(`\\b${now.getUTCFullYear()}\\b`).test(query)) timeRange = 'year';
  const words = query.trim().split(/\s+/).length;
  const searchDepth: SearchDepth = NEEDS_DEPTH.test(query) || words >= LONG_QUERY_WORDS ? 'advanced' : 'basic';
  return { topic, searchDepth, ...(timeRange ? { timeRange } : {}) };
}
