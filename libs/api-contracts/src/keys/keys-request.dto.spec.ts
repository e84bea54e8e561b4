import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { DeactivateKeysRequestDto, deactivateKeysTargetMissing } from './deactivate-keys-request.dto';
import { GenerateKeysRequestDto } from './generate-keys-request.dto';

async function parse<T extends object>(type: new () => T, body: object): Promise<{ dto: T; invalid: string[] }> {
  const dto = plainToInstance(type, body);
  const errors = await validate(dto, { whitelist: true });
  return { dto, invalid: errors.map((error) => error.property) };
}

describe('GenerateKeysRequestDto', () => {
  it('creates one prod key by default', async () => {
    const { dto, invalid } = await parse(GenerateKeysRequestDto, {});
    expect(invalid).toEqual([]);
    expect(dto).toMatchObject({ count: 1, environment: 'prod' });
    expect(dto.credit_limit).toBeUndefined();
  });

  it('bounds count to 1..100 and credit_limit to integers from 0', async () => {
    expect((await parse(GenerateKeysRequestDto, { count: 100, credit_limit: 0, environment: 'dev' })).invalid).toEqual([]);
    expect((await parse(GenerateKeysRequestDto, { count: 0 })).invalid).toEqual(['count']);
    expect((await parse(GenerateKeysRequestDto, { count: 101 })).invalid).toEqual(['count']);
    expect((await parse(GenerateKeysRequestDto, { credit_limit: -1 })).invalid).toEqual(['credit_limit']);
    expect((await parse(GenerateKeysRequestDto, { credit_limit: 1.5 })).invalid).toEqual(['credit_limit']);
    expect((await parse(GenerateKeysRequestDto, { environment: 'staging' })).invalid).toEqual(['environment']);
  });

  it('keeps credit_limit inside a Postgres integer and project_id short enough for its index', async () => {
    expect((await parse(GenerateKeysRequestDto, { credit_limit: 2 ** 31 - 1, project_id: 'p'.repeat(512) })).invalid).toEqual([]);
    expect((await parse(GenerateKeysRequestDto, { credit_limit: 2 ** 31 })).invalid).toEqual(['credit_limit']);
    expect((await parse(GenerateKeysRequestDto, { credit_limit: 1e21 })).invalid).toEqual(['credit_limit']);
    expect((await parse(GenerateKeysRequestDto, { project_id: 'p'.repeat(513) })).invalid).toEqual(['project_id']);
  });
});

describe('DeactivateKeysRequestDto', () => {
  it('accepts keys or ids and reports an empty request through deactivateKeysTargetMissing', async () => {
    const { dto, invalid } = await parse(DeactivateKeysRequestDto, { key_ids: [] });
    expect(invalid).toEqual([]);
    expect(deactivateKeysTargetMissing(dto)).toBe(true);
    expect(deactivateKeysTargetMissing({ api_keys: ['sift-prod-abc'] })).toBe(false);
    expect(deactivateKeysTargetMissing({ key_ids: ['key_1'] })).toBe(false);
    expect((await parse(DeactivateKeysRequestDto, { api_keys: 'sift-prod-abc' })).invalid).toEqual(['api_keys']);
  });
});
