import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { ExtractRequestDto } from './extract-request.dto';

async function parse(body: object): Promise<{ dto: ExtractRequestDto; invalid: string[] }> {
  const dto = plainToInstance(ExtractRequestDto, body);
  const errors = await validate(dto, { whitelist: true });
  return { dto, invalid: errors.map((error) => error.property) };
}

const urls = (count: number) => Array.from({ length: count }, (_, index) => `https://example.com/page-${index}`);

describe('ExtractRequestDto', () => {
  it('normalises a single URL string to a one-element array', async () => {
    const { dto, invalid } = await parse({ urls: 'https://example.com/' });
    expect(invalid).toEqual([]);
    expect(dto.urls).toEqual(['https://example.com/']);
  });

  it('fills the documented defaults and leaves timeout to the depth-based service default', async () => {
    const { dto, invalid } = await parse({ urls: ['https://example.com/'] });
    expect(invalid).toEqual([]);
    expect(dto).toMatchObject({
      include_images: false,
      extract_depth: 'basic',
      format: 'markdown',
      include_favicon: false,
      include_usage: false,
      chunks_per_source: 3,
    });
    expect(dto.timeout).toBeUndefined();
    expect(dto.query).toBeUndefined();
  });

  it('accepts 20 URLs and rejects 21, none, or non-strings', async () => {
    expect((await parse({ urls: urls(20) })).invalid).toEqual([]);
    expect((await parse({ urls: urls(21) })).invalid).toEqual(['urls']);
    expect((await parse({ urls: [] })).invalid).toEqual(['urls']);
    expect((await parse({})).invalid).toEqual(['urls']);
    expect((await parse({ urls: [42] })).invalid).toEqual(['urls']);
  });

  it.each([
    [1, true],
    [12.5, true],
    [60, true],
    [0.5, false],
    [60.1, false],
    ['10', false],
  ])('timeout %p valid=%p', async (timeout, valid) => {
    expect((await parse({ urls: urls(1), timeout })).invalid.includes('timeout')).toBe(!valid);
  });

  it.each([
    [1, true],
    [5, true],
    [0, false],
    [6, false],
  ])('chunks_per_source %p valid=%p', async (chunks, valid) => {
    expect((await parse({ urls: urls(1), query: 'pricing', chunks_per_source: chunks })).invalid.includes('chunks_per_source')).toBe(!valid);
  });

  it('checks extract_depth and format against their lists', async () => {
    expect((await parse({ urls: urls(1), extract_depth: 'advanced', format: 'text' })).invalid).toEqual([]);
    expect((await parse({ urls: urls(1), extract_depth: 'deep', format: 'html' })).invalid.sort()).toEqual(['extract_depth', 'format']);
  });
});
