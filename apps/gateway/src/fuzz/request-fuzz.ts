import fc from 'fast-check';
import { getMetadataStorage } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';

/** A request body as sent over the wire: JSON text (valid or not) and the Content-Type it goes with. */
export interface FuzzBody {
  text: string;
  contentType: string;
}

type Constructor = abstract new (...args: never[]) => object;

/** Properties that hold nested DTOs (ValidateNested + Type), per DTO, so their items are generated from those DTOs. */
export type NestedDtos = ReadonlyMap<Constructor, ReadonlyMap<string, Constructor>>;

const NUL = '\u0000';
const LONE_HIGH_SURROGATE = '\ud800';
const LONE_LOW_SURROGATE = '\udc00';

/** Strings no database column may receive: NUL, lone surrogates, and very long or odd text. */
export const hostileString = fc.oneof(
  fc.constantFrom(NUL, `a${NUL}b`, LONE_HIGH_SURROGATE, `x${LONE_LOW_SURROGATE}`, `${LONE_HIGH_SURROGATE}@example.com`, 'a'.repeat(3000), '', ' ', '%00', '\\u0000'),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: fc.constantFrom(NUL, LONE_HIGH_SURROGATE, LONE_LOW_SURROGATE, 'a', '\ud83d\ude00'), maxLength: 20 }),
);

/** Numbers past every bound a DTO or a database column has. */
const hostileNumber = fc.oneof(
  fc.constantFrom(-1, 0, 0.5, -0.5, 2 ** 31 - 1, 2 ** 31, 2 ** 32, 2 ** 53, 2 ** 63, 1e21, 1e308, -1e308, Number.MIN_VALUE),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** Any JSON value of a wrong type for most fields. */
const wrongType: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  hostileNumber,
  hostileString,
  fc.constant({}),
  fc.constant([]),
  fc.array(hostileString, { maxLength: 3 }),
  fc.dictionary(hostileString, hostileString, { maxKeys: 3 }),
);

function metadataOf(dto: Constructor): ValidationMetadata[] {
  return getMetadataStorage().getTargetValidationMetadatas(dto as unknown as new () => object, '', true, false);
}

function numberConstraint(metadata: ValidationMetadata[], name: string): number | undefined {
  const found = metadata.find((entry) => entry.name === name);
  return typeof found?.constraints?.[0] === 'number' ? found.constraints[0] : undefined;
}

/**
 * Values for one DTO property, read from its class-validator decorators: mostly values the DTO accepts (its allowed
 * values, numbers within its bounds, short strings), so requests get past validation; otherwise the bounds, each at
 * and one past the limit, wrong types and hostile strings.
 */
function propertyArbitrary(metadata: ValidationMetadata[], nestedDtos: NestedDtos, nested: ReadonlyMap<string, Constructor>, property: string, depth: number): fc.Arbitrary<unknown> {
  const accepted: fc.Arbitrary<unknown>[] = [];
  const hostile: fc.Arbitrary<unknown>[] = [wrongType];
  const allowed = metadata.find((entry) => entry.name === 'isIn')?.constraints?.[0] as unknown[] | undefined;
  if (allowed?.length) accepted.push(fc.constantFrom(...allowed));
  const min = numberConstraint(metadata, 'min');
  const max = numberConstraint(metadata, 'max');
  const bounds = [min, max].filter((value): value is number => value !== undefined);
  if (bounds.length) hostile.push(fc.constantFrom(...bounds.flatMap((bound) => [bound - 1, bound - 0.5, bound, bound + 0.5, bound + 1])));
  const isInteger = metadata.some((entry) => entry.name === 'isInt');
  if (isInteger || metadata.some((entry) => entry.name === 'isNumber')) {
    // Small accepted values: a generate-keys count of 100 would make the fuzz a key-minting benchmark.
    const low = min ?? 0;
    const high = Math.min(max ?? low + 100, low + 5);
    accepted.push(isInteger ? fc.integer({ min: low, max: high }) : fc.double({ min: low, max: high, noNaN: true }));
    hostile.push(hostileNumber);
  }
  if (metadata.some((entry) => entry.name === 'isBoolean')) accepted.push(fc.boolean());
  if (metadata.some((entry) => entry.name === 'isCalendarDate' || entry.name === 'isCalendarDateOrDateTime')) accepted.push(fc.constantFrom('2025-01-01', '2025-06-30'));
  const maxLength = numberConstraint(metadata, 'maxLength');
  const arrayMaxSize = numberConstraint(metadata, 'arrayMaxSize');
  const isArray = metadata.some((entry) => entry.name === 'isArray') || arrayMaxSize !== undefined;
  const child = nested.get(property);
  const acceptedElement: fc.Arbitrary<unknown> = child && depth < 3 ? dtoBodyArbitrary(child, nestedDtos, depth + 1) : fc.oneof(fc.string({ minLength: 1, maxLength: 30 }), fc.webUrl(), fc.emailAddress());
  const hostileElement = maxLength !== undefined ? fc.oneof(fc.constantFrom('a'.repeat(maxLength), 'a'.repeat(maxLength + 1)), hostileString) : hostileString;
  const anyElement = fc.oneof({ arbitrary: acceptedElement, weight: 4 }, { arbitrary: hostileElement, weight: 1 });
  if (isArray) {
    const size = arrayMaxSize ?? 25;
    accepted.push(fc.array(acceptedElement, { minLength: 1, maxLength: 4 }));
    hostile.push(fc.array(anyElement, { maxLength: 6 }), fc.constantFrom(size, size + 1).chain((length) => fc.array(anyElement, { minLength: length, maxLength: length })));
  } else if (!allowed?.length && !accepted.length) {
    accepted.push(acceptedElement);
    hostile.push(hostileElement);
  }
  return fc.oneof({ arbitrary: fc.oneof(...accepted), weight: 9 }, { arbitrary: fc.oneof(...hostile), weight: 1 });
}

/** A body built from a DTO: any subset of its properties, each valid, at a limit, past it or of a wrong type. */
export function dtoBodyArbitrary(dto: Constructor, nestedDtos: NestedDtos, depth = 0): fc.Arbitrary<Record<string, unknown>> {
  const metadata = metadataOf(dto);
  const properties = [...new Set(metadata.map((entry) => entry.propertyName))];
  const nested = nestedDtos.get(dto) ?? new Map<string, Constructor>();
  const record: Record<string, fc.Arbitrary<unknown>> = {};
  for (const property of properties) {
    record[property] = propertyArbitrary(metadata.filter((entry) => entry.propertyName === property), nestedDtos, nested, property, depth);
  }
  // Unknown fields are ignored by the DTOs, but still pass the gateway's input checks; hostile ones now and then.
  const extras = fc.oneof(
    { arbitrary: fc.constant({}), weight: 6 },
    { arbitrary: fc.dictionary(fc.constantFrom('api_key_extra', 'client_version', 'metadata'), wrongType, { maxKeys: 2 }), weight: 2 },
    { arbitrary: fc.dictionary(hostileString, wrongType, { maxKeys: 2 }), weight: 1 },
  );
  // Fields without @IsOptional are always sent (defaulted ones included), so more bodies get past validation.
  const optional = new Set(metadata.filter((entry) => entry.type === 'conditionalValidation').map((entry) => entry.propertyName));
  const requiredKeys = properties.filter((property) => !optional.has(property));
  return fc.tuple(fc.record(record, { requiredKeys }), extras).map(([known, unknown]) => ({ ...unknown, ...known }));
}

/** JSON text nested `depth` levels deep, in arrays or objects. */
export function deeplyNested(depth: number, kind: 'array' | 'object'): string {
  return kind === 'array' ? `${'['.repeat(depth)}1${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

/**
 * Whole bodies for an endpoint: the DTO-derived ones, a DTO field set to something nested far too deep, invalid
 * JSON, JSON that is not an object, and wrong content types.
 */
export function requestBodyArbitrary(dto: Constructor | undefined, nestedDtos: NestedDtos = new Map()): fc.Arbitrary<FuzzBody> {
  const json = 'application/json';
  const fromDto = dto ? dtoBodyArbitrary(dto, nestedDtos).map((body) => ({ text: JSON.stringify(body), contentType: json })) : fc.constant({ text: '{}', contentType: json });
  const deep = fc
    .tuple(fc.integer({ min: 60, max: 3000 }), fc.constantFrom<'array' | 'object'>('array', 'object'), fc.constantFrom('query', 'urls', 'request_id', 'count', 'role', 'x'))
    .map(([depth, kind, field]) => ({ text: `{"${field}":${deeplyNested(depth, kind)}}`, contentType: json }));
  const invalidJson = fc
    .oneof(fc.constantFrom('{', '{"a":}', '[1,', 'nul', '"\\ud800"', '{"a":"\\u0000"}', '{"query":"\\ud800"}', '\u0000', '{"a":1}}'), fc.string({ maxLength: 40 }))
    .map((text) => ({ text, contentType: json }));
  const notAnObject = fc.oneof(fc.constantFrom('[]', '1', '"text"', 'null', 'true', '[{"query":"x"}]')).map((text) => ({ text, contentType: json }));
  const wrongContentType = fc
    .tuple(fromDto, fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml', 'application/json; charset=latin1', 'application/json; charset=utf-16', ''))
    .map(([body, contentType]) => ({ text: body.text, contentType }));
  return fc.oneof({ arbitrary: fromDto, weight: 6 }, { arbitrary: deep, weight: 1 }, { arbitrary: invalidJson, weight: 1 }, { arbitrary: notAnObject, weight: 1 }, { arbitrary: wrongContentType, weight: 1 });
}

/** A pattern that backtracks catastrophically on a backtracking engine, or one that is not a regular expression at all. */
const hostilePattern = fc.constantFrom('^(\\w+\\s?)*$', '^(a+)+$', '(x+x+)+y', '^(a|a)*$', '(?<=a)b', '\\1(a)', '[', '(?', '^\\p{L}+$', '^[a-z]{1,3}$');

/**
 * JSON Schemas as a caller may send for research's output_schema: small valid ones, and the shapes a hostile one takes
 * (backtracking patterns, huge enums, properties hidden under $defs, anyOf and allOf, deep nesting, list sizes in the
 * millions, remote references, keywords of the wrong type).
 */
export const hostileOutputSchema: fc.Arbitrary<unknown> = fc.letrec<{ node: unknown }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom({ type: 'string' }, { type: 'number' }, { type: 'integer', minimum: 0 }, { type: 'boolean' }, { type: 'string', enum: ['a', 'b', 'c'] }),
    hostilePattern.map((pattern) => ({ type: 'string', pattern })),
    // Each limit at, just past and far past it: compiling a 60,000-value enum takes Ajv seconds on the event loop.
    fc.constantFrom(5, 100, 101, 1_000, 60_000).map((count) => ({ type: 'string', enum: Array.from({ length: count }, (_, index) => `value-${index}`) })),
    fc.constantFrom(3, 50, 51, 3_000_000, 2 ** 31, -1, 1e308).map((minItems) => ({ type: 'array', minItems, items: { type: 'string' } })),
    fc.constantFrom('$defs', 'definitions', 'anyOf', 'allOf', 'oneOf').chain((keyword) =>
      fc.constantFrom(3, 100, 101, 1_000, 10_000).map((count) => {
        const properties = Object.fromEntries(Array.from({ length: count }, (_, index) => [`p${index}`, { type: 'string' }]));
        return keyword === '$defs' || keyword === 'definitions' ? { type: 'object', [keyword]: { big: { type: 'object', properties } } } : { [keyword]: [{ type: 'object', properties }] };
      }),
    ),
    fc.integer({ min: 10, max: 400 }).map((depth) => {
      let node: unknown = { type: 'string' };
      for (let level = 0; level < depth; level += 1) node = { type: 'object', properties: { inner: node } };
      return node;
    }),
    fc.constantFrom({ $ref: 'https://example.com/schema.json' }, { $ref: '#/$defs/missing' }, { $ref: '#' }, { type: 'nope' }, { minItems: 'many' }, { pattern: 7 }, { required: 'all' }),
    fc.dictionary(fc.constantFrom('a', 'b', 'c'), tie('node'), { maxKeys: 3 }).map((properties) => ({ type: 'object', properties })),
    fc.array(tie('node'), { maxLength: 3 }).map((anyOf) => ({ anyOf })),
    fc.tuple(tie('node'), fc.option(fc.integer({ min: 0, max: 100 }))).map(([items, maxItems]) => ({ type: 'array', items, ...(maxItems === null ? {} : { maxItems }) })),
    wrongType,
  ),
})).node;

/** POST /research bodies whose output_schema is a hostile or ordinary JSON Schema, at the root or under a property. */
export const researchBodyArbitrary: fc.Arbitrary<FuzzBody> = fc
  .tuple(
    fc.oneof(hostileString, fc.constant('How do heat pumps work?')),
    fc.constantFrom('mini', 'pro', 'auto'),
    hostileOutputSchema,
    // Mostly under a property: a schema without "properties" at its root is refused before anything compiles it.
    fc.constantFrom(true, true, true, false),
    fc.constantFrom('answer', 'summary'),
  )
  .map(([input, model, schema, underProperty, name]) => {
    const outputSchema = underProperty ? { properties: { [name]: schema }, required: [name] } : schema;
    return { text: JSON.stringify({ input, model, output_schema: outputSchema }), contentType: 'application/json' };
  });
