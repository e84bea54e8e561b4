import { compileOutputSchema, OutputSchemaValidator } from './output-schema';

describe('compileOutputSchema', () => {
  const schema = { properties: { summary: { type: 'string' }, year: { type: 'integer' } }, required: ['summary'] };

  it('compiles a schema with properties and validates reports against it', () => {
    const validator = compileOutputSchema(schema) as OutputSchemaValidator;
    expect(typeof validator).toBe('object');
    expect(validator.problemsWith({ summary: 'x', year: 2024 })).toBeNull();
    expect(validator.problemsWith({ year: 'soon' })).toMatch(/summary/);
  });

  it.each([
    ['a string', 'summary', /JSON Schema object/],
    ['no properties', { type: 'object' }, /"properties"/],
    ['empty properties', { properties: {} }, /at least one/],
    ['required naming an unknown field', { properties: { a: { type: 'string' } }, required: ['b'] }, /not in properties: b/],
    ['an unknown type', { properties: { a: { type: 'strng' } } }, /not a valid JSON Schema/],
  ])('refuses %s', (_name, candidate, reason) => {
    expect(compileOutputSchema(candidate)).toMatch(reason);
  });
});
