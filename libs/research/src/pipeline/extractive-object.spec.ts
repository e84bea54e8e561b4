import type { OutputSchemaValidator } from '../output-schema';
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
  const validator: OutputSchemaValidator = { schema, problemsWith: () => null };
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
});
