import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { SearchRequestDto } from './search-request.dto';
import { normalizeTimeRange } from './search.constants';

async function parse(body: object): Promise<{ dto: SearchRequestDto; invalid: string[] }> {
  const dto = plainToInstance(SearchRequestDto, body);
  const errors = await validate(dto, { whitelist: true });
  return { dto, invalid: errors.map((error) => error.property) };
}

describe('SearchRequestDto', () => {
  it('fills every documented default when only the query is sent', async () => {
    const { dto, invalid } = await parse({ query: 'rust async runtimes' });
    expect(invalid).toEqual([]);
    expect(dto).toMatchObject({
      auto_parameters: false,
      search_depth: 'basic',
      topic: 'general',
      max_results: 10,
      chunks_per_source: 3,
      include_images: false,
      include_image_descriptions: false,
      include_answer: false,
      include_raw_content: false,
      include_domains: [],
      exclude_domains: [],
      filter_by_language: false,
      exact_match: false,
      safe_search: false,
      include_favicon: false,
      include_usage: false,
    });
    expect(dto.time_range).toBeUndefined();
    expect(dto.include_domains_mode).toBeUndefined();
  });

  it('treats explicit nulls as the defaults, as Python clients send them', async () => {
    const { dto, invalid } = await parse({ query: 'q', max_results: null, include_domains: null, search_depth: null });
    expect(invalid).toEqual([]);
    expect(dto.max_results).toBe(10);
    expect(dto.include_domains).toEqual([]);
    expect(dto.search_depth).toBe('basic');
  });

  it('requires a non-empty query', async () => {
    expect((await parse({})).invalid).toContain('query');
    expect((await parse({ query: '' })).invalid).toContain('query');
  });

  it.each([
    [0, true],
    [20, true],
    [-1, false],
    [21, false],
    [2.5, false],
    ['5', false],
  ])('max_results %p valid=%p', async (maxResults, valid) => {
    expect((await parse({ query: 'q', max_results: maxResults })).invalid.includes('max_results')).toBe(!valid);
  });

  it.each([
    [1, true],
    [5, true],
    [0, false],
    [6, false],
  ])('chunks_per_source %p valid=%p', async (chunks, valid) => {
    expect((await parse({ query: 'q', chunks_per_source: chunks })).invalid.includes('chunks_per_source')).toBe(!valid);
  });

  it.each(['day', 'week', 'month', 'year', 'd', 'w', 'm', 'y'])('accepts time_range %s', async (timeRange) => {
    expect((await parse({ query: 'q', time_range: timeRange })).invalid).toEqual([]);
  });

  it('rejects an unknown time_range and maps short forms to long ones', async () => {
    expect((await parse({ query: 'q', time_range: 'decade' })).invalid).toEqual(['time_range']);
    expect(normalizeTimeRange('w')).toBe('week');
    expect(normalizeTimeRange('year')).toBe('year');
  });

  it.each([true, false, 'basic', 'advanced'])('accepts include_answer %p', async (value) => {
    expect((await parse({ query: 'q', include_answer: value })).invalid).toEqual([]);
  });

  it.each(['true', 'detailed', 1])('rejects include_answer %p (no string coercion)', async (value) => {
    expect((await parse({ query: 'q', include_answer: value })).invalid).toEqual(['include_answer']);
  });

  it.each([true, false, 'markdown', 'text'])('accepts include_raw_content %p', async (value) => {
    expect((await parse({ query: 'q', include_raw_content: value })).invalid).toEqual([]);
  });

  it('rejects include_raw_content html and booleans sent as strings', async () => {
    expect((await parse({ query: 'q', include_raw_content: 'html' })).invalid).toEqual(['include_raw_content']);
    expect((await parse({ query: 'q', include_images: 'true' })).invalid).toEqual(['include_images']);
  });

  it('checks search_depth and topic against their lists', async () => {
    expect((await parse({ query: 'q', search_depth: 'ultra-fast', topic: 'finance' })).invalid).toEqual([]);
    expect((await parse({ query: 'q', search_depth: 'deep', topic: 'sports' })).invalid.sort()).toEqual(['search_depth', 'topic']);
  });

  it('accepts real YYYY-MM-DD dates only', async () => {
    expect((await parse({ query: 'q', start_date: '2024-02-29', end_date: '2025-12-31' })).invalid).toEqual([]);
    expect((await parse({ query: 'q', start_date: '2025-02-29' })).invalid).toEqual(['start_date']);
    expect((await parse({ query: 'q', end_date: '2025-1-5' })).invalid).toEqual(['end_date']);
    expect((await parse({ query: 'q', end_date: '2025-01-05T00:00:00Z' })).invalid).toEqual(['end_date']);
  });

  it('caps include_domains at 300 and exclude_domains at 150', async () => {
    const domains = (count: number) => Array.from({ length: count }, (_, index) => `site${index}.example`);
    expect((await parse({ query: 'q', include_domains: domains(300), exclude_domains: domains(150) })).invalid).toEqual([]);
    expect((await parse({ query: 'q', include_domains: domains(301) })).invalid).toEqual(['include_domains']);
    expect((await parse({ query: 'q', exclude_domains: domains(151) })).invalid).toEqual(['exclude_domains']);
  });

  it('accepts the spec names of include_domains_mode and normalises the client spellings', async () => {
    expect((await parse({ query: 'q', include_domains_mode: 'boost' })).dto.include_domains_mode).toBe('boost');
    expect((await parse({ query: 'q', include_domains_mode: 'restrict' })).dto.include_domains_mode).toBe('filter');
    expect((await parse({ query: 'q', include_domains_mode: 'prefer' })).dto.include_domains_mode).toBe('boost');
    expect((await parse({ query: 'q', include_domains_mode: 'only' })).invalid).toEqual(['include_domains_mode']);
  });

  it('keeps any country string as the clients send it', async () => {
    const { dto, invalid } = await parse({ query: 'q', country: 'united states' });
    expect(invalid).toEqual([]);
    expect(dto.country).toBe('united states');
  });
});
