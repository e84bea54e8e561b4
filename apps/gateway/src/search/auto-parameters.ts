import type { SearchDepth, SearchTopic } from '@sift/api-contracts';

export type LongTimeRange = 'day' | 'week' | 'month' | 'year';

/** What auto_parameters reads from a query; each field only when the query says something about it. */
export interface InferredParameters {
  topic: SearchTopic;
  searchDepth: SearchDepth;
  timeRange?: LongTimeRange;
  /** Why each value was chosen, in words a caller can check against the query (the response's warnings). */
  reasons: { topic: string; searchDepth: string; timeRange?: string };
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
  const finance = FINANCE.exec(query)?.[0];
  const news = finance ? undefined : NEWS.exec(query)?.[0];
  const topic: SearchTopic = finance ? 'finance' : news ? 'news' : 'general';
  const topicReason = finance ? `the query says "${finance}"` : news ? `the query says "${news}"` : 'the query names no news or finance words';
  let timeRange: LongTimeRange | undefined;
  let timeRangeReason: string | undefined;
  for (const [pattern, range] of TIME_WORDS) {
    const words = pattern.exec(query)?.[0];
    if (words) {
      timeRange = range;
      timeRangeReason = `the query says "${words}"`;
      break;
    }
  }
  // A query naming the current year asks about this year's events.
  const year = String(now.getUTCFullYear());
  if (!timeRange && new RegExp(`\\b${year}\\b`).test(query)) {
    timeRange = 'year';
    timeRangeReason = `the query names the current year ${year}`;
  }
  const words = query.trim().split(/\s+/).length;
  const deepWords = NEEDS_DEPTH.exec(query)?.[0];
  const searchDepth: SearchDepth = deepWords || words >= LONG_QUERY_WORDS ? 'advanced' : 'basic';
  const depthReason = deepWords
    ? `the query asks for a close reading ("${deepWords}")`
    : words >= LONG_QUERY_WORDS
      ? `the query is long (${words} words)`
      : 'the query is short and asks for no comparison or explanation';
  return {
    topic,
    searchDepth,
    ...(timeRange ? { timeRange } : {}),
    reasons: { topic: topicReason, searchDepth: depthReason, ...(timeRangeReason ? { timeRange: timeRangeReason } : {}) },
  };
}
