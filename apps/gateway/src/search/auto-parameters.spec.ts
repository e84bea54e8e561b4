import { inferParameters } from './auto-parameters';

describe('inferParameters', () => {
  const now = new Date('2026-03-10T12:00:00Z');

  it('reads news, its time range and a plain depth from a short news query', () => {
    expect(inferParameters('latest news about the volcano today', now)).toEqual({ topic: 'news', searchDepth: 'basic', timeRange: 'day' });
  });

  it('recognises finance queries and tickers', () => {
    expect(inferParameters('ACME stock price', now).topic).toBe('finance');
    expect(inferParameters('what moved $NVDA', now).topic).toBe('finance');
  });

  it('raises the depth for comparisons and long questions only', () => {
    expect(inferParameters('compare postgres and mysql replication', now).searchDepth).toBe('advanced');
    expect(inferParameters('one two three four five six seven eight nine ten', now).searchDepth).toBe('advanced');
    expect(inferParameters('rust tutorial', now)).toEqual({ topic: 'general', searchDepth: 'basic' });
  });

  it('takes the current year as a one-year range, and week and month words', () => {
    expect(inferParameters('best laptops 2026', now).timeRange).toBe('year');
    expect(inferParameters('best laptops 2019', now).timeRange).toBeUndefined();
    expect(inferParameters('rust releases this month', now).timeRange).toBe('month');
    expect(inferParameters('what happened past week', now).timeRange).toBe('week');
  });
});
