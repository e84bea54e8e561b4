import { loopHoldDuring } from '@sift/testing';
import { compileOutputSchema, OUTPUT_SCHEMA_LIMITS, OutputSchemaValidator } from './output-schema';

/** `count` string properties named p0, p1, … */
function stringProperties(count: number): Record<string, { type: 'string' }> {
  return Object.fromEntries(Array.from({ length: count }, (_, index) => [`p${index}`, { type: 'string' as const }]));
}

function compiled(schema: unknown): OutputSchemaValidator {
  const validator = compileOutputSchema(schema);
  if (typeof validator === 'string') throw new Error(`refused: ${validator}`);
  return validator;
}

describe('compileOutputSchema', () => {
  const schema = { properties: { summary: { type: 'string' }, year: { type: 'integer' } }, required: ['summary'] };

  it('compiles a schema with properties and validates reports against it', () => {
    const validator = compiled(schema);
    expect(validator.problemsWith({ summary: 'x', year: 2024 })).toBeNull();
    expect(validator.problemsWith({ year: 'soon' })).toMatch(/summary/);
  });

  it.each([
    ['a string', 'summary', /JSON Schema object/],
    ['no properties', { type: 'object' }, /"properties"/],
    ['empty properties', { properties: {} }, /at least one/],
    ['required naming an unknown field', { properties: { a: { type: 'string' } }, required: ['b'] }, /not in properties: "b"/],
    ['an unknown type', { properties: { a: { type: 'strng' } } }, /not a valid JSON Schema/],
  ])('refuses %s', (_name, candidate, reason) => {
    expect(compileOutputSchema(candidate)).toMatch(reason);
  });

  it('keeps a legitimate schema working: a few properties, a simple pattern, an enum of five, a local $ref, a bounded list', () => {
    const validator = compiled({
      $defs: { isbn: { type: 'string', pattern: '^\\d{3}-\\d{10}$' } },
      properties: {
        title: { type: 'string', minLength: 1 },
        isbn: { $ref: '#/$defs/isbn' },
        genre: { enum: ['fiction', 'poetry', 'drama', 'essay', 'other'] },
        authors: { type: 'array', items: { type: 'string', pattern: '^\\p{Lu}' }, minItems: 1, maxItems: 10_000 },
      },
      required: ['title', 'isbn'],
    });
    expect(validator.problemsWith({ title: 'Dune', isbn: '978-0441013593', genre: 'fiction', authors: ['Frank Herbert'] })).toBeNull();
    expect(validator.problemsWith({ title: 'Dune', isbn: '0441013593', genre: 'space', authors: ['frank'] })).toMatch(
      /\/isbn must match pattern .*\/genre must be equal to one of the allowed values.*\/authors\/0 must match pattern/,
    );
  });

  describe('patterns run on RE2 (linear time)', () => {
    it('validates a catastrophic-backtracking pattern against adversarial strings without holding the event loop', async () => {
      const validator = compiled({ properties: { name: { type: 'string', pattern: '^(\\w+\\s?)*$' } }, required: ['name'] });
      // 30 characters take a backtracking engine seconds (each one more doubles it); RE2 microseconds.
      const short = await loopHoldDuring(async () => validator.problemsWith({ name: `${'a'.repeat(30)}!` }));
      expect(short.value).toMatch(/\/name must match pattern/);
      expect(short.longestStallMs).toBeLessThan(500);
      // A few thousand, which a backtracking engine would not finish in a lifetime: still milliseconds, linear in the text.
      const long = await loopHoldDuring(async () => validator.problemsWith({ name: `${'a'.repeat(5_000)}!` }));
      expect(long.value).toMatch(/\/name must match pattern/);
      expect(long.longestStallMs).toBeLessThan(500);
      expect(validator.problemsWith({ name: 'two words' })).toBeNull();
    });

    it('reads ECMA-262 syntax (\\u escapes, named groups) and applies patternProperties on RE2 too', () => {
      const validator = compiled({ properties: { accent: { type: 'string', pattern: '^caf\\u00e9$' } }, patternProperties: { '^(?<prefix>x)-': { type: 'number' } } });
      expect(validator.problemsWith({ accent: 'café', 'x-count': 3 })).toBeNull();
      expect(validator.problemsWith({ accent: 'cafe', 'x-count': 'three' })).toMatch(/\/accent must match pattern.*\/x-count must be number/);
    });

    it.each([
      ['a lookahead', '^(?=a)b'],
      ['a backreference', '(a)\\1'],
      ['a malformed pattern', '(unclosed'],
    ])('refuses %s, which RE2 cannot run', (_name, pattern) => {
      expect(compileOutputSchema({ properties: { a: { type: 'string', pattern } } })).toMatch(/output_schema pattern "\/properties\/a\/pattern" is not a regular expression RE2 can run/);
    });

    it('refuses a pattern that is too long or compiles to too large a program, and too many patterns together', () => {
      expect(compileOutputSchema({ properties: { a: { type: 'string', pattern: 'a'.repeat(501) } } })).toMatch(/longer than 500 characters/);
      expect(compileOutputSchema({ properties: { a: { type: 'string', pattern: '[a-z]{1,1000}$' } } })).toMatch(/too complex \(RE2 program size 2002, at most 1000\)/);
      const patterns = Object.fromEntries(Array.from({ length: 10 }, (_, index) => [`p${index}`, { type: 'string', pattern: `^[a-z]{1,240}${index}$` }]));
      expect(compileOutputSchema({ properties: patterns })).toMatch(new RegExp(`patterns may compile to at most ${OUTPUT_SCHEMA_LIMITS.patternProgramSize} RE2 instructions`));
      expect(compileOutputSchema({ properties: { a: { type: 'object', patternProperties: { '(?!x)': {} } } } })).toMatch(/patternProperties\/\(\?!x\)" is not a regular expression RE2/);
    });
  });

  describe(`limits (${JSON.stringify(OUTPUT_SCHEMA_LIMITS)})`, () => {
    it('refuses a schema over 32 KB of JSON without compiling it: the 60,000-value enum answers in milliseconds', () => {
      const enumOf = Array.from({ length: 60_000 }, (_, index) => `value-${index}`);
      const startedAt = performance.now();
      expect(compileOutputSchema({ properties: { a: { type: 'string', enum: enumOf } } })).toBe('output_schema may be at most 32768 characters of JSON.');
      // Ajv takes seconds to compile this one.
      expect(performance.now() - startedAt).toBeLessThan(500);
      expect(compileOutputSchema({ properties: { a: { type: 'string', description: 'x'.repeat(33_000) } } })).toMatch(/at most 32768 characters/);
    });

    it('refuses nesting deeper than 32 levels, even thousands deep (no recursion over the body)', () => {
      let deep: unknown = {};
      for (let level = 0; level < 100_000; level += 1) deep = [deep];
      const refusal = compileOutputSchema({ properties: { a: { default: deep } } });
      // Named rather than printed when compiled: the schema in the validator is too deep for Jest to copy.
      expect(typeof refusal === 'string' ? refusal : 'compiled').toBe('output_schema may nest objects and arrays at most 32 deep.');
      let nested: Record<string, unknown> = { type: 'string' };
      for (let level = 0; level < 16; level += 1) nested = { type: 'object', properties: { child: nested } };
      expect(compileOutputSchema({ properties: { a: nested } })).toMatch(/at most 32 deep/);
    });

    it.each([
      ['at the top', { properties: stringProperties(101) }],
      ['under $defs', { properties: { a: { type: 'string' } }, $defs: { many: { properties: stringProperties(101) } } }],
      ['under anyOf', { properties: { a: { type: 'string' } }, anyOf: [{ properties: stringProperties(60) }, { properties: stringProperties(60) }] }],
      ['under allOf', { properties: { a: { type: 'string' } }, allOf: [{ properties: stringProperties(101) }] }],
      ['under items', { properties: { a: { type: 'array', items: { type: 'object', properties: stringProperties(101) } } } }],
      ['under not and if/then', { properties: { a: { type: 'string' } }, not: { properties: stringProperties(50) }, if: { properties: stringProperties(25) }, then: { properties: stringProperties(25) } }],
      ['through $ref, counted where used', { properties: { a: { $ref: '#/$defs/d' }, b: { $ref: '#/$defs/d' } }, $defs: { d: { properties: stringProperties(40) } } }],
    ])('counts properties anywhere: refuses more than 100 %s', (_name, candidate) => {
      expect(compileOutputSchema(candidate)).toMatch(/may declare at most 100 properties/);
    });

    it('refuses more than 500 subschemas, and a $ref fan-out that would expand beyond them, in milliseconds', () => {
      const anyOf = Array.from({ length: 501 }, () => ({ type: 'string' }));
      expect(compileOutputSchema({ properties: { a: { anyOf } } })).toMatch(/at most 500 subschemas/);
      // Each level refers to the next twice: 2^30 subschemas once expanded.
      const $defs: Record<string, unknown> = { d30: { type: 'string' } };
      for (let level = 0; level < 30; level += 1) $defs[`d${level}`] = { allOf: [{ $ref: `#/$defs/d${level + 1}` }, { $ref: `#/$defs/d${level + 1}` }] };
      const startedAt = performance.now();
      expect(compileOutputSchema({ properties: { a: { $ref: '#/$defs/d0' } }, $defs })).toMatch(/at most 500 subschemas/);
      expect(performance.now() - startedAt).toBeLessThan(500);
    });

    it('refuses an enum of more than 100 values', () => {
      const values = Array.from({ length: 101 }, (_, index) => index);
      expect(compileOutputSchema({ properties: { a: { enum: values } } })).toBe('output_schema enum may list at most 100 values ("/properties/a/enum" lists 101).');
      expect(compileOutputSchema({ properties: { a: { enum: values.slice(0, 100) } } })).not.toEqual(expect.any(String));
    });

    it.each([
      ['minItems', { type: 'array', minItems: 3_000_000 }, 'output_schema minItems may be at most 50 ("/properties/a/minItems" is 3000000).'],
      ['minItems nested under items', { type: 'array', items: { type: 'array', minItems: 51 } }, 'output_schema minItems may be at most 50 ("/properties/a/items/minItems" is 51).'],
      ['minContains', { type: 'array', contains: { type: 'string' }, minContains: 1_000 }, 'output_schema minContains may be at most 50 ("/properties/a/minContains" is 1000).'],
      ['minLength', { type: 'string', minLength: 10_000_000 }, 'output_schema minLength may be at most 10000 ("/properties/a/minLength" is 10000000).'],
      ['minProperties', { type: 'object', minProperties: 1_000 }, 'output_schema minProperties may be at most 100 ("/properties/a/minProperties" is 1000).'],
    ])('refuses a %s beyond what a report can hold', (_name, property, reason) => {
      expect(compileOutputSchema({ properties: { a: property } })).toBe(reason);
    });

    it('accepts upper bounds of any size (they only limit) and lower bounds at the limits', () => {
      expect(compileOutputSchema({ properties: { a: { type: 'array', minItems: 50, maxItems: 3_000_000 }, b: { type: 'string', minLength: 10_000, maxLength: 1e9 } } })).not.toEqual(expect.any(String));
    });

    it.each([
      ['a remote $ref', { properties: { a: { $ref: 'https://example.com/schema.json' } } }, /\$ref may only point inside the schema \("#\/..."\): "https:\/\/example.com\/schema.json"/],
      ['a relative $ref', { properties: { a: { $ref: 'other.json#/x' } } }, /\$ref may only point inside the schema/],
      ['an anchor $ref', { properties: { a: { $ref: '#name' } } }, /\$ref may only point inside the schema/],
      ['a $ref that names nothing', { properties: { a: { $ref: '#/$defs/missing' } } }, /\$ref "#\/\$defs\/missing" names nothing in the schema/],
      ['a recursive $ref', { properties: { a: { $ref: '#/$defs/node' } }, $defs: { node: { properties: { child: { $ref: '#/$defs/node' } } } } }, /may not be recursive: "#\/\$defs\/node"/],
      ['a $ref to the root', { properties: { a: { $ref: '#' } } }, /may not be recursive: "#"/],
      ['a self-referring $ref', { properties: { a: { $ref: '#/$defs/a' } }, $defs: { a: { $ref: '#/$defs/a' } } }, /may not be recursive/],
      ['an $id below the root', { properties: { a: { $id: 'https://example.com/a', type: 'string' } } }, /may have an \$id only at its root/],
      ['$dynamicRef', { properties: { a: { $dynamicRef: '#node' } } }, /may not use \$dynamicRef/],
      ['$async, whose validator would pass every report', { $async: true, properties: { a: { type: 'string' } } }, /may not use \$async/],
    ])('refuses %s', (_name, candidate, reason) => {
      expect(compileOutputSchema(candidate)).toMatch(reason);
    });

    it('follows local $refs with escaped pointers, and accepts an $id at the root', () => {
      const validator = compiled({ $id: 'https://example.com/report.json', definitions: { 'a/b': { type: 'integer' } }, properties: { n: { $ref: '#/definitions/a~1b' } } });
      expect(validator.problemsWith({ n: 'x' })).toMatch(/\/n must be integer/);
    });

    it('keeps a refusal short: five problems, then how many more', () => {
      const properties = Object.fromEntries(Array.from({ length: 40 }, (_, index) => [`p${index}`, { type: 'array', minItems: 1_000 + index }]));
      const reason = compileOutputSchema({ properties, required: Array.from({ length: 40 }, (_, index) => `p${index}`) }) as string;
      expect(reason).toMatch(/^output_schema minItems may be at most 50 \("\/properties\/p0\/minItems" is 1000\)\. .* \(and 35 more problems\)$/);
      expect(reason.length).toBeLessThan(600);
      const unknown = compileOutputSchema({ properties: { a: {} }, required: Array.from({ length: 1_000 }, (_, index) => `missing${index}`) }) as string;
      expect(unknown).toBe('output_schema.required names fields that are not in properties: "missing0", "missing1", "missing2", "missing3", "missing4" and 995 more.');
    });

    it("keeps the validator's complaints short: five problems, then how many more", () => {
      const validator = compiled({ properties: { items: { type: 'array', items: { type: 'integer' } } } });
      const problems = validator.problemsWith({ items: Array.from({ length: 1_000 }, (_, index) => `not a number ${index}`) }) as string;
      expect(problems).toMatch(/^\/items\/0 must be integer; .*\/items\/4 must be integer \(and 995 more problems\)$/);
    });
  });

  describe('the costliest schemas the limits allow compile and validate in seconds, not minutes', () => {
    const BLOW_UP_MS = 5_000;
    // Larger than a model's longest answer (2,500 tokens): long strings, each matched by the patterns to its end (RE2's
    // time depends on the text's length, not its shape; the shapes that make a backtracking engine explode are tested above).
    const long = 'many words in a row '.repeat(50).trim();

    function measured(schema: Record<string, unknown>, report: Record<string, unknown>) {
      expect(JSON.stringify(schema).length).toBeGreaterThan(OUTPUT_SCHEMA_LIMITS.characters * 0.7);
      expect(JSON.stringify(schema).length).toBeLessThanOrEqual(OUTPUT_SCHEMA_LIMITS.characters);
      expect(JSON.stringify(report).length).toBeGreaterThan(20_000);
      const startedAt = performance.now();
      const validator = compiled(schema);
      const compiledAt = performance.now();
      const problems = validator.problemsWith(report);
      const validatedAt = performance.now();
      // Bounds against a blow-up (a schema whose cost grows with its shape takes minutes), not a speed figure: a quiet
      // machine takes 0.1-0.4 s; the full suite on two cores has been seen at 1.1 s.
      expect(compiledAt - startedAt).toBeLessThan(BLOW_UP_MS);
      expect(validatedAt - compiledAt).toBeLessThan(BLOW_UP_MS);
      return problems;
    }

    it('many $refs: 100 properties, some 400 subschemas once expanded, lists at the minItems cap with uniqueItems, an enum at its cap', () => {
      const $defs = { word: { type: 'string', pattern: '^(\\w+\\s?)*$', minLength: 1 }, choice: { enum: Array.from({ length: 100 }, (_, value) => `v${value}`) } };
      const properties = Object.fromEntries(
        Array.from({ length: 100 }, (_, index) => [
          `field${index}`,
          {
            description: `Field ${index}: ${'a description of what the report should say here '.repeat(4)}`,
            ...(index % 2 === 0
              ? { anyOf: [{ $ref: '#/$defs/word' }, { $ref: '#/$defs/choice' }] }
              : { type: 'array', minItems: 50, uniqueItems: true, items: { $ref: '#/$defs/word' } }),
          },
        ]),
      );
      // Every list one item short of its minItems: each item validated, and the list refused.
      const report = Object.fromEntries(Object.keys(properties).map((name, index) => [name, index % 2 === 0 ? long : Array.from({ length: 49 }, (_, item) => `${long.slice(0, 20)} ${item}`)]));
      expect(measured({ $defs, properties, required: Object.keys(properties) }, report)).toMatch(/must NOT have fewer than 50 items/);
    });

    it('many keywords: 100 properties of ten keywords each, a pattern on every one, and 190 alternatives', () => {
      const properties = Object.fromEntries(
        Array.from({ length: 100 }, (_, index) => [
          `p${index}`,
          { type: ['string', 'number', 'null'], minLength: 1, maxLength: 500, pattern: `^(\\w+\\s?)*${index % 10}?$`, minimum: 0, maximum: 10, multipleOf: 2, exclusiveMinimum: -1, not: { const: 'x' } },
        ]),
      );
      const anyOf = Array.from({ length: 190 }, (_, index) => ({ required: [`p${index % 100}`], minProperties: 1 }));
      const report = Object.fromEntries(Object.keys(properties).map((name) => [name, long]));
      expect(measured({ properties, anyOf, required: Object.keys(properties) }, report)).toMatch(/must NOT have more than 500 characters/);
    });
  });
});
