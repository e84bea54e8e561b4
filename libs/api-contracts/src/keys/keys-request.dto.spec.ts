import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { DeactivateKeysRequestDto, deactivationTarget } from './deactivate-keys-request.dto';
import { GenerateKeysRequestDto } from './generate-keys-request.dto';

async function parse<T extends object>(type: new () => T, body: object): Promise<{ dto: T; invalid: string[] }> {
  const dto = plainToInstance(type, body);
  const errors = await validate(dto, { whitelist: true });
  return { dto, invalid: errors.map((error) => error.property) };
}

describe('GenerateKeysRequestDto', () => {
  it("creates one development key by default, as Tavily's generate-keys does", async () => {
    const { dto, invalid } = await parse(GenerateKeysRequestDto, {});
    expect(invalid).toEqual([]);
    expect(dto).toMatchObject({ count: 1, key_type: 'development' });
    expect(dto.key_limit).toBeUndefined();
    expect(dto.ttl_hours).toBeUndefined();
  });

  it("holds count, key_limit and ttl_hours to Tavily's bounds", async () => {
    const edges = { count: 200, key_limit: 100_000, ttl_hours: 8_760, key_type: 'production' };
    expect((await parse(GenerateKeysRequestDto, edges)).invalid).toEqual([]);
    expect((await parse(GenerateKeysRequestDto, { count: 1, key_limit: 1, ttl_hours: 1 })).invalid).toEqual([]);
    expect((await parse(GenerateKeysRequestDto, { count: 0 })).invalid).toEqual(['count']);
    expect((await parse(GenerateKeysRequestDto, { count: 201 })).invalid).toEqual(['count']);
    expect((await parse(GenerateKeysRequestDto, { key_limit: 0 })).invalid).toEqual(['key_limit']);
    expect((await parse(GenerateKeysRequestDto, { key_limit: 100_001 })).invalid).toEqual(['key_limit']);
    expect((await parse(GenerateKeysRequestDto, { key_limit: 1.5 })).invalid).toEqual(['key_limit']);
    expect((await parse(GenerateKeysRequestDto, { ttl_hours: 0 })).invalid).toEqual(['ttl_hours']);
    expect((await parse(GenerateKeysRequestDto, { ttl_hours: 8_761 })).invalid).toEqual(['ttl_hours']);
    expect((await parse(GenerateKeysRequestDto, { key_type: 'staging' })).invalid).toEqual(['key_type']);
    expect((await parse(GenerateKeysRequestDto, { key_type: 'dev' })).invalid).toEqual(['key_type']);
  });

  it('keeps project_id short enough for its index', async () => {
    expect((await parse(GenerateKeysRequestDto, { project_id: 'p'.repeat(512) })).invalid).toEqual([]);
    expect((await parse(GenerateKeysRequestDto, { project_id: 'p'.repeat(513) })).invalid).toEqual(['project_id']);
  });
});

describe('DeactivateKeysRequestDto', () => {
  it('names keys by generation request, key or id; no field means the calling key, only empty lists nothing', async () => {
    const { dto, invalid } = await parse(DeactivateKeysRequestDto, { key_ids: [] });
    expect(invalid).toEqual([]);
    expect(deactivationTarget(dto)).toBe('nothing');
    expect(deactivationTarget({ api_keys: [], key_ids: [] })).toBe('nothing');
    expect(deactivationTarget({})).toBe('calling-key');
    expect(deactivationTarget({ request_id: '949297ca-d123-4267-8041-45398a0b847d' })).toBe('named-keys');
    expect(deactivationTarget({ api_keys: ['sift-prod-abc'], key_ids: [] })).toBe('named-keys');
    expect(deactivationTarget({ key_ids: ['key_1'] })).toBe('named-keys');
    expect((await parse(DeactivateKeysRequestDto, { api_keys: 'sift-prod-abc' })).invalid).toEqual(['api_keys']);
    expect((await parse(DeactivateKeysRequestDto, { request_id: 5 })).invalid).toEqual(['request_id']);
  });
});
