import type { SearchQuery } from './search-query';

export interface TimeWindow {
  after?: Date;
  before?: Date;
}

const DAY_MS = 24 * 60 * 60 * 1000;

const RANGE_DAYS: Record<string, number> = { day: 1, d: 1, week: 7, w: 7, month: 31, m: 31, year: 366, y: 366 };

/** The publish-date window a query asks for; time_range and start/end dates combine (the narrower wins). */
export function timeWindowOf(query: SearchQuery, now: Date = new Date()): TimeWindow {
  const window: TimeWindow = {};
  if (query.timeRange) {
    window.after = new Date(now.getTime() - RANGE_DAYS[query.timeRange] * DAY_MS);
  }
  if (query.startDate) {
    const start = new Date(`${query.startDate}T00:00:00Z`);
    if (!window.after || start > window.after) window.after = start;
  }
  if (query.endDate) {
    // "Before this date": the whole end day is excluded, matching Tavily's exclusive end.
    window.before = new Date(`${query.endDate}T00:00:00Z`);
  }
  return window;
}

export function isInsideWindow(date: Date, window: TimeWindow): boolean {
  if (window.after && date < window.after) return false;
  if (window.before && date >= window.before) return false;
  return true;
}
