import { inferParameters } from './auto-parameters';

describe('inferParameters', () => {
  const now = new Date('2026-03-10T12:00:00Z');

  it('reads news, its time range and a plain depth from a short news query', () => {
    expect(inferParameters('latest news about the volcano today', now)).toMatchObject({ topic: 'news', searchDepth: 'basic', timeRange: 'day' });
  });

  it('recognises finance queries and tickers', () => {
    expect(inferParameters('ACME stock price', now).topic).toBe('finance');
    expect(inferParameters('what moved $NVDA', now).topic).toBe('finance');
  });

  it('raises the depth for comparisons and long questions only', () => {
    expect(inferParameters('compare postgres and mysql replication', now).searchDepth).toBe('advanced');
    expect(inferParameters('one two three four five six seven eight nine ten', now).searchDepth).toBe('advanced');
    const plain = inferParameters('rust tutorial', now);
    expect(plain).toMatchObject({ topic: 'general', searchDepth: 'basic' });
    expect(plain.timeRange).toBeUndefined();
  });

  it('takes the current year as a one-year range, and week and month words', () => {
    expect(inferParameters('best laptops 2026', now).timeRange).toBe('year');
    expect(inferParameters('best laptops 2019', now).timeRange).toBeUndefined();
    expect(inferParameters('rust releases this month', now).timeRange).toBe('month');
    expect(inferParameters('what happened past week', now).timeRange).toBe('week');
  });

  it('says which words of the query decided each value', () => {
    expect(inferParameters('latest news: compare the two launches today', now).reasons).toEqual({
      topic: 'the query says "latest"',
      searchDepth: 'the query asks for a close reading ("compare")',
      timeRange: 'the query says "today"',
    });
    expect(inferParameters('best laptops 2026', now).reasons.timeRange).toBe('the query names the current year 2026');
    expect(inferParameters('one two three four five six seven eight nine ten', now).reasons.searchDepth).toBe('the query is long (10 words)');
  });
});
