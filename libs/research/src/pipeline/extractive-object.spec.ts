import { compileOutputSchema, type OutputSchemaValidator } from '../output-schema';
import { extractiveObject } from './extractive-object';
import { SentencePicker, sentencePool } from './extractive-report';
import { corpusPages } from './research-corpus.testing';
import type { SourcePage } from './source-page';

const pages: SourcePage[] = corpusPages.map((page) => ({ source: { title: page.title, url: page.url }, content: page.content, queries: [], preferred: false }));

/**
 * A schema as a task stored before output_schema had limits may hold (the gateway refuses it now): filled as it
 * is, with a validator that accepts anything, so the filler's own bounds are what is measured.
 */
function filled(schema: Record<string, unknown>) {
  const validator: OutputSchemaValidator = { schema, problemsWith: () => null, unfitFields: () => ({ fields: [], other: null }) };
  const picker = new SentencePicker(sentencePool(pages), pages);
  const pick = jest.spyOn(picker, 'pick');
  const startedAt = performance.now();
  const { content } = extractiveObject(validator, picker, 'How do git rebase and git merge differ?');
  return { content, elapsedMs: performance.now() - startedAt, searches: pick.mock.calls.length };
}

/** Values in a filled report: every array, object and scalar under the root. */
function valuesIn(value: unknown): number {
  if (Array.isArray(value)) return 1 + value.reduce<number>((sum, item) => sum + valuesIn(item), 0);
  if (typeof value === 'object' && value !== null) return 1 + Object.values(value).reduce<number>((sum, item) => sum + valuesIn(item), 0);
  return 1;
}

describe('extractiveObject', () => {
  it('fills a list with at most 50 items, whatever minItems asks', () => {
    const { content, elapsedMs } = filled({
      properties: { steps: { type: 'array', minItems: 1_000, items: { type: 'object', properties: { step: { type: 'string' } } } } },
    });
    expect((content.steps as unknown[]).length).toBeLessThanOrEqual(50);
    expect(elapsedMs).toBeLessThan(5_000);
  });

  it('fills at most 500 values however lists nest: three lists of 50 deep would be 125,000 objects', () => {
    let nested: Record<string, unknown> = { type: 'object' };
    for (let level = 0; level < 3; level += 1) nested = { type: 'array', minItems: 50, items: nested };
    const { content, elapsedMs } = filled({ properties: { tree: nested } });
    expect(valuesIn(content)).toBeLessThanOrEqual(1 + 500);
    expect(elapsedMs).toBeLessThan(5_000);
  });

  it('searches the pages at most twice for each of the 500 values: 50 objects of 20 fields would be 1,000 values', () => {
    const fields = Object.fromEntries(Array.from({ length: 20 }, (_, index) => [`field${index}`, { type: 'string' }]));
    const { content, searches, elapsedMs } = filled({ properties: { rows: { type: 'array', minItems: 50, items: { type: 'object', properties: fields } } } });
    expect(valuesIn(content)).toBeLessThanOrEqual(1 + 500);
    expect(searches).toBeLessThanOrEqual(2 * 500);
    expect(elapsedMs).toBeLessThan(5_000);
  });

  it('still fills a list of objects as the schema asks within the limits', () => {
    const { content } = filled({
      properties: { commands: { type: 'array', minItems: 2, maxItems: 4, items: { type: 'object', properties: { summary: { type: 'string', description: 'what the command does' } } } } },
    });
    const commands = content.commands as Array<{ summary?: string }>;
    expect(commands.length).toBeGreaterThanOrEqual(2);
    expect(commands.length).toBeLessThanOrEqual(4);
    expect(commands[0].summary).toEqual(expect.any(String));
  });

  describe('typed fields', () => {
    const schema = {
      properties: { command: { type: 'string' }, founder: { type: 'string' }, summary: { type: 'string' } },
      required: ['command', 'founder'],
    };
    const question = 'Which git command rewrites history on top of another base, and who founded the project?';

    function fill(from: SourcePage[]) {
      const validator = compileOutputSchema(schema);
      if (typeof validator === 'string') throw new Error(validator);
      return extractiveObject(validator, new SentencePicker(sentencePool(from), from), question);
    }

    it('fills a command with a command and a founder with the person a source names as creator', () => {
      const { content, unfilled, order } = fill(pages);
      expect(content.command).toMatch(/^git[- ]rebase$/);
      expect(content.founder).toBe('Linus Torvalds');
      expect(unfilled).toEqual([]);
      expect(order.sources.map((source) => source.url)).toContain('https://en.wikipedia.org/wiki/Git');
    });

    it('lists a field no source supports as unfilled instead of failing or filling it with any sentence', () => {
      const documentation = pages.filter((page) => !page.source.url.includes('wikipedia'));
      const { content, unfilled, order } = fill(documentation);
      expect(content.command).toMatch(/^git[- ]rebase$/);
      expect(content).not.toHaveProperty('founder');
      expect(unfilled).toEqual(['founder']);
      expect(order.sources.map((source) => source.url)).not.toContain('https://en.wikipedia.org/wiki/Git');
    });

    it('leaves out a value that breaks its field\'s constraints, and fails only when no field is left', () => {
      const strict = compileOutputSchema({ properties: { summary: { type: 'string', maxLength: 3 }, founder: { type: 'string' } }, required: ['summary'] });
      if (typeof strict === 'string') throw new Error(strict);
      const picker = () => new SentencePicker(sentencePool(pages), pages);
      expect(extractiveObject(strict, picker(), 'Who created Git?')).toMatchObject({ content: { founder: 'Linus Torvalds' }, unfilled: ['summary'] });
      const hopeless = compileOutputSchema({ properties: { price: { type: 'number' } }, required: ['price'] });
      if (typeof hopeless === 'string') throw new Error(hopeless);
      expect(() => extractiveObject(hopeless, picker(), 'How much does a git merge cost?')).toThrow(/support none of output_schema's fields: "price"/);
    });
  });
});
