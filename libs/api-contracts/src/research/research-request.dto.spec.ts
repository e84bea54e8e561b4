import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { ResearchRequestDto } from './research-request.dto';

async function parse(body: object): Promise<{ dto: ResearchRequestDto; invalid: string[] }> {
  const dto = plainToInstance(ResearchRequestDto, body);
  const errors = await validate(dto, { whitelist: true });
  return { dto, invalid: errors.map((error) => error.property) };
}

const domains = (count: number) => Array.from({ length: count }, (_, index) => `site${index}.example`);

describe('ResearchRequestDto', () => {
  it('fills the documented defaults', async () => {
    const { dto, invalid } = await parse({ input: 'state of solid-state batteries' });
    expect(invalid).toEqual([]);
    expect(dto).toMatchObject({
      model: 'auto',
      output_length: 'standard',
      include_domains: [],
      exclude_domains: [],
      citation_format: 'numbered',
      stream: false,
    });
  });

  it('requires input', async () => {
    expect((await parse({})).invalid).toEqual(['input']);
    expect((await parse({ input: '' })).invalid).toEqual(['input']);
  });

  it('caps include_domains and exclude_domains at 20', async () => {
    expect((await parse({ input: 'q', include_domains: domains(20), exclude_domains: domains(20) })).invalid).toEqual([]);
    expect((await parse({ input: 'q', include_domains: domains(21), exclude_domains: domains(21) })).invalid.sort()).toEqual([
      'exclude_domains',
      'include_domains',
    ]);
  });

  it('checks model, output_length, citation_format and stream', async () => {
    expect((await parse({ input: 'q', model: 'pro', output_length: 'long', citation_format: 'apa', stream: true })).invalid).toEqual([]);
    const invalid = (await parse({ input: 'q', model: 'max', output_length: 'huge', citation_format: 'ieee', stream: 'yes' })).invalid;
    expect(invalid.sort()).toEqual(['citation_format', 'model', 'output_length', 'stream']);
  });

  it('accepts an output_schema object and rejects a string', async () => {
    expect((await parse({ input: 'q', output_schema: { properties: { summary: { type: 'string' } } } })).invalid).toEqual([]);
    expect((await parse({ input: 'q', output_schema: 'summary' })).invalid).toEqual(['output_schema']);
  });
});
