import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { LogsRequestDto } from './logs-request.dto';

async function parse(body: object): Promise<{ dto: LogsRequestDto; invalid: string[] }> {
  const dto = plainToInstance(LogsRequestDto, body);
  const errors = await validate(dto, { whitelist: true });
  return { dto, invalid: errors.map((error) => error.property) };
}

describe('LogsRequestDto', () => {
  it('defaults to 10 entries across all keys', async () => {
    const { dto, invalid } = await parse({});
    expect(invalid).toEqual([]);
    expect(dto.limit).toBe(10);
    expect(dto.filter_by_api_key).toBe(false);
  });

  it.each([
    [1, true],
    [10000, true],
    [0, false],
    [10001, false],
    ['25', false],
  ])('limit %p valid=%p', async (limit, valid) => {
    expect((await parse({ limit })).invalid.includes('limit')).toBe(!valid);
  });

  it('accepts dates and ISO date-times, rejects anything else', async () => {
    expect((await parse({ start_date: '2025-06-01', end_date: '2025-06-30T23:59:59.999Z' })).invalid).toEqual([]);
    expect((await parse({ start_date: '2025-06-01T08:00:00+02:00' })).invalid).toEqual([]);
    expect((await parse({ start_date: 'yesterday' })).invalid).toEqual(['start_date']);
    expect((await parse({ end_date: '2025-13-01' })).invalid).toEqual(['end_date']);
  });

  it('only type-checks endpoints (unknown names are the service\'s 400)', async () => {
    expect((await parse({ endpoints: ['search', 'teleport'] })).invalid).toEqual([]);
    expect((await parse({ endpoints: [1] })).invalid).toEqual(['endpoints']);
  });

  it('does not coerce filter_by_api_key from a string', async () => {
    expect((await parse({ filter_by_api_key: true })).dto.filter_by_api_key).toBe(true);
    expect((await parse({ filter_by_api_key: 'true' })).invalid).toEqual(['filter_by_api_key']);
  });

  it('caps project_id at 512 characters (a 3 KB one overflowed the project index)', async () => {
    expect((await parse({ project_id: 'p'.repeat(512) })).invalid).toEqual([]);
    expect((await parse({ project_id: 'p'.repeat(3000) })).invalid).toEqual(['project_id']);
  });
});
