import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { MapRequestDto } from '../map/map-request.dto';
import { CrawlRequestDto } from './crawl-request.dto';

async function parse<T extends object>(type: new () => T, body: object): Promise<{ dto: T; invalid: string[] }> {
  const dto = plainToInstance(type, body);
  const errors = await validate(dto, { whitelist: true });
  return { dto, invalid: errors.map((error) => error.property) };
}

describe('CrawlRequestDto', () => {
  it('fills every documented default', async () => {
    const { dto, invalid } = await parse(CrawlRequestDto, { url: 'https://docs.example.com' });
    expect(invalid).toEqual([]);
    expect(dto).toMatchObject({
      max_depth: 1,
      max_breadth: 20,
      limit: 50,
      select_paths: null,
      select_domains: null,
      exclude_paths: null,
      exclude_domains: null,
      allow_external: true,
      include_images: false,
      extract_depth: 'basic',
      format: 'markdown',
      include_favicon: false,
      timeout: 150,
      include_usage: false,
      chunks_per_source: 3,
    });
  });

  it('lets a missing url through validation so the service can answer "no starting url provided"', async () => {
    const { dto, invalid } = await parse(CrawlRequestDto, {});
    expect(invalid).toEqual([]);
    expect(dto.url).toBeUndefined();
    expect((await parse(CrawlRequestDto, { url: 7 })).invalid).toEqual(['url']);
  });

  it.each([
    ['max_depth', 1, true],
    ['max_depth', 5, true],
    ['max_depth', 0, false],
    ['max_depth', 6, false],
    ['max_breadth', 1, true],
    ['max_breadth', 500, true],
    ['max_breadth', 0, false],
    ['max_breadth', 501, false],
    ['limit', 1, true],
    ['limit', 100000, true],
    ['limit', 0, false],
    ['timeout', 10, true],
    ['timeout', 150, true],
    ['timeout', 9.9, false],
    ['timeout', 151, false],
    ['chunks_per_source', 5, true],
    ['chunks_per_source', 6, false],
  ])('%s %p valid=%p', async (field, value, valid) => {
    expect((await parse(CrawlRequestDto, { url: 'https://example.com', [field]: value })).invalid.includes(field)).toBe(!valid);
  });

  it('accepts regular-expression lists and explicit nulls for the path and domain filters', async () => {
    const body = { url: 'https://example.com', select_paths: ['/docs/.*'], exclude_domains: ['^ads\\.'], select_domains: null };
    const { dto, invalid } = await parse(CrawlRequestDto, body);
    expect(invalid).toEqual([]);
    expect(dto.select_paths).toEqual(['/docs/.*']);
    expect(dto.select_domains).toBeNull();
    expect((await parse(CrawlRequestDto, { url: 'https://example.com', select_paths: '/docs' })).invalid).toEqual(['select_paths']);
  });
});

describe('MapRequestDto', () => {
  it('has the traversal defaults and none of the extraction fields', async () => {
    const { dto, invalid } = await parse(MapRequestDto, { url: 'https://example.com', include_images: true });
    expect(invalid).toEqual([]);
    expect(dto).toMatchObject({ max_depth: 1, max_breadth: 20, limit: 50, allow_external: true, timeout: 150, include_usage: false });
    expect(dto).not.toHaveProperty('extract_depth');
    expect(dto).not.toHaveProperty('include_images');
  });

  it('bounds timeout to 10..150 seconds', async () => {
    expect((await parse(MapRequestDto, { url: 'https://example.com', timeout: 5 })).invalid).toEqual(['timeout']);
  });
});

describe('MapRequestDto scope patterns', () => {
  const patterns = (count: number, length = 5) => Array.from({ length: count }, (_, index) => `/${String(index).padStart(length - 1, 'p')}`);

  it('accepts what the crawler compiles: up to 100 patterns per field, each 1 to 1000 characters', async () => {
    const body = { url: 'https://a.example', select_paths: patterns(100), exclude_domains: patterns(1, 1000) };
    expect((await parse(MapRequestDto, body)).invalid).toEqual([]);
  });

  it.each(['select_paths', 'select_domains', 'exclude_paths', 'exclude_domains'])('refuses in %s what the crawler would refuse later', async (field) => {
    expect((await parse(CrawlRequestDto, { url: 'https://a.example', [field]: patterns(101) })).invalid).toEqual([field]);
    expect((await parse(CrawlRequestDto, { url: 'https://a.example', [field]: patterns(1, 1001) })).invalid).toEqual([field]);
    expect((await parse(CrawlRequestDto, { url: 'https://a.example', [field]: [''] })).invalid).toEqual([field]);
  });
});
