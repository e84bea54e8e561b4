import type { RE2JS } from 're2js';
import { compileLinearPattern, MAXIMUM_PATTERN_PROGRAM_SIZE } from './output-schema-pattern';

/**
 * What an output_schema may ask for. A report is a page of findings, not a database: these bound the work every
 * step does with a schema (Ajv compiling it at the gateway and the worker, validating a report against it, the
 * extractive writer filling it), so no caller's schema can hold an event loop for long.
 */
export const OUTPUT_SCHEMA_LIMITS = {
  /** The schema as compact JSON, in characters. */
  characters: 32_768,
  /** Objects and arrays nested in one another, the schema itself the first. */
  depth: 32,
  /** Schemas and subschemas at any depth (under properties, items, $defs, anyOf, allOf, not, if…), each $ref counted where it is used. */
  subschemas: 500,
  /** Names under `properties` (and `patternProperties`) at any depth, each $ref counted where it is used. */
  properties: 100,
  /** Values one `enum` lists. */
  enumValues: 100,
  /** The RE2 program sizes of all of the schema's patterns together, each $ref counted where it is used. */
  patternProgramSize: 4 * MAXIMUM_PATTERN_PROGRAM_SIZE,
  /** The largest `minItems` (and `minContains`): no list in a report need hold more items, nor does the extractive writer fill more. */
  listItems: 50,
  /** The largest `minLength`, in characters. */
  stringLength: 10_000,
} as const;

/** Problems listed in one refusal; the rest are counted. */
const PROBLEMS_SHOWN = 5;
/** Characters of a caller's own text (a path, a $ref) quoted back in a problem. */
const QUOTED_CHARACTERS = 80;

/** Keywords whose value is one schema (`items` may also be a list of them). */
const SCHEMA_KEYWORDS = [
  'additionalItems',
  'additionalProperties',
  'contains',
  'contentSchema',
  'else',
  'if',
  'items',
  'not',
  'propertyNames',
  'then',
  'unevaluatedItems',
  'unevaluatedProperties',
];
/** Keywords whose value is a list of schemas. */
const SCHEMA_LIST_KEYWORDS = ['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items'];
/** Keywords whose value maps names to schemas. */
const SCHEMA_MAP_KEYWORDS = ['$defs', 'definitions', 'dependencies', 'dependentSchemas', 'patternProperties', 'properties'];
/** Keywords naming a least count of the value they constrain: the work a report must do to validate. */
const LOWER_BOUNDS = new Map<string, number>([
  ['minItems', OUTPUT_SCHEMA_LIMITS.listItems],
  ['minContains', OUTPUT_SCHEMA_LIMITS.listItems],
  ['minLength', OUTPUT_SCHEMA_LIMITS.stringLength],
  ['minProperties', OUTPUT_SCHEMA_LIMITS.properties],
]);
/** Keywords an output_schema may not use, and why. */
const REFUSED_KEYWORDS = new Map<string, string>([
  // Identifiers other schemas could be named by: $ref follows JSON pointers into the schema only.
  ...['$anchor', '$dynamicAnchor', '$dynamicRef', '$recursiveAnchor', '$recursiveRef'].map((keyword) => [keyword, '$ref points into the schema by JSON pointer'] as [string, string]),
  // An asynchronous validator answers with a promise, which would pass every report.
  ['$async', 'reports are validated synchronously'],
]);

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A caller's text quoted back, cut short. */
function quoted(text: string): string {
  return JSON.stringify(text.length > QUOTED_CHARACTERS ? `${text.slice(0, QUOTED_CHARACTERS)}…` : text);
}

/** Problems as one short reason: the first few, and how many more there are. */
export function summarized(problems: string[], separator = ' '): string {
  const shown = problems.slice(0, PROBLEMS_SHOWN).join(separator);
  return problems.length > PROBLEMS_SHOWN ? `${shown} (and ${problems.length - PROBLEMS_SHOWN} more problems)` : shown;
}

/** Names listed in a reason: the first few, and how many more there are. */
export function listed(names: string[]): string {
  const shown = names.slice(0, PROBLEMS_SHOWN).map(quoted).join(', ');
  return names.length > PROBLEMS_SHOWN ? `${shown} and ${names.length - PROBLEMS_SHOWN} more` : shown;
}

/**
 * Why a value is too large or too deep to be an output_schema, else null. Walks without recursion (a body can
 * nest arrays thousands deep) and stops as soon as a limit is passed, so a megabyte of enum costs no more than
 * the first 32 KB of it.
 */
export function sizeProblem(schema: unknown): string | null {
  const { characters: maximumCharacters, depth: maximumDepth } = OUTPUT_SCHEMA_LIMITS;
  let characters = 0;
  const pending: Array<{ value: unknown; depth: number }> = [{ value: schema, depth: 1 }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { value, depth } = next;
    if (typeof value === 'object' && value !== null) {
      if (depth > maximumDepth) return `output_schema may nest objects and arrays at most ${maximumDepth} deep.`;
      const children = Array.isArray(value) ? value : Object.values(value);
      // Brackets and commas, then each name with its quotes and colon.
      characters += 2 + Math.max(0, children.length - 1);
      if (!Array.isArray(value)) for (const name of Object.keys(value)) characters += JSON.stringify(name).length + 1;
      if (characters > maximumCharacters) break;
      for (const child of children) pending.push({ value: child, depth: depth + 1 });
    } else {
      characters += JSON.stringify(value)?.length ?? 0;
      if (characters > maximumCharacters) break;
    }
  }
  return characters > maximumCharacters ? `output_schema may be at most ${maximumCharacters} characters of JSON.` : null;
}

/** The value a local `$ref` ("#" or "#/$defs/name") points at in the schema, or undefined when it names nothing. */
function resolvePointer(root: JsonObject, reference: string): unknown {
  if (reference === '#') return root;
  let target: unknown = root;
  for (const encoded of reference.slice('#/'.length).split('/')) {
    let segment: string;
    try {
      segment = decodeURIComponent(encoded).replace(/~1/g, '/').replace(/~0/g, '~');
    } catch {
      return undefined;
    }
    if (typeof target !== 'object' || target === null || !Object.prototype.hasOwnProperty.call(target, segment)) return undefined;
    target = (target as JsonObject)[segment];
  }
  return target;
}

/**
 * Counts what a schema asks for, walking every subschema (following each `$ref` into what it names) and stopping
 * once the subschemas are over their limit, so a schema that refers to the same definition over and over costs
 * no more to count than to refuse.
 */
class SchemaCensus {
  private subschemas = 0;
  private properties = 0;
  private patternProgramSize = 0;
  private stopped = false;
  readonly problems = new Set<string>();
  /** Each pattern compiled once, however many times it is used. */
  readonly patterns = new Map<string, RE2JS>();

  constructor(private readonly root: JsonObject) {}

  visit(schema: unknown, path: string, followed: ReadonlySet<unknown>): void {
    if (this.stopped) return;
    if (!isObject(schema)) return;
    this.subschemas += 1;
    if (this.subschemas > OUTPUT_SCHEMA_LIMITS.subschemas) {
      this.problems.add(`output_schema may hold at most ${OUTPUT_SCHEMA_LIMITS.subschemas} subschemas (each $ref counted where it is used).`);
      this.stopped = true;
      return;
    }
    for (const [keyword, value] of Object.entries(schema)) {
      const at = `${path}/${keyword}`;
      if (keyword === '$ref') this.follow(value, at, followed);
      else if (keyword === '$id' && path !== '') this.problems.add(`output_schema may have an $id only at its root (${quoted(at)}).`);
      else if (REFUSED_KEYWORDS.has(keyword)) this.problems.add(`output_schema may not use ${keyword} (${quoted(at)}): ${REFUSED_KEYWORDS.get(keyword)}.`);
      else if (keyword === 'enum' && Array.isArray(value) && value.length > OUTPUT_SCHEMA_LIMITS.enumValues) {
        this.problems.add(`output_schema enum may list at most ${OUTPUT_SCHEMA_LIMITS.enumValues} values (${quoted(at)} lists ${value.length}).`);
      } else if (keyword === 'pattern' && typeof value === 'string') this.pattern(value, at);
      else if (typeof value === 'number' && value > (LOWER_BOUNDS.get(keyword) ?? Infinity)) {
        this.problems.add(`output_schema ${keyword} may be at most ${LOWER_BOUNDS.get(keyword)} (${quoted(at)} is ${value}).`);
      }
      if (SCHEMA_KEYWORDS.includes(keyword) && !Array.isArray(value)) this.visit(value, at, followed);
      if (SCHEMA_LIST_KEYWORDS.includes(keyword) && Array.isArray(value)) value.forEach((item, index) => this.visit(item, `${at}/${index}`, followed));
      if (SCHEMA_MAP_KEYWORDS.includes(keyword) && isObject(value)) this.map(keyword, value, at, followed);
    }
  }

  private map(keyword: string, schemas: JsonObject, path: string, followed: ReadonlySet<unknown>): void {
    if (keyword === 'properties' || keyword === 'patternProperties') {
      this.properties += Object.keys(schemas).length;
      if (this.properties > OUTPUT_SCHEMA_LIMITS.properties) {
        this.problems.add(`output_schema may declare at most ${OUTPUT_SCHEMA_LIMITS.properties} properties (at any depth, each $ref counted where it is used).`);
      }
    }
    for (const [name, schema] of Object.entries(schemas)) {
      if (keyword === 'patternProperties') this.pattern(name, `${path}/${name}`);
      this.visit(schema, `${path}/${name}`, followed);
    }
  }

  private pattern(source: string, path: string): void {
    const compiled = this.patterns.get(source) ?? compileLinearPattern(source);
    if (typeof compiled === 'string') {
      this.problems.add(`output_schema pattern ${quoted(path)} ${compiled}.`);
      return;
    }
    this.patterns.set(source, compiled);
    this.patternProgramSize += compiled.programSize();
    if (this.patternProgramSize > OUTPUT_SCHEMA_LIMITS.patternProgramSize) {
      this.problems.add(`output_schema's patterns may compile to at most ${OUTPUT_SCHEMA_LIMITS.patternProgramSize} RE2 instructions together.`);
    }
  }

  private follow(reference: unknown, path: string, followed: ReadonlySet<unknown>): void {
    if (typeof reference !== 'string') return;
    if (reference !== '#' && !reference.startsWith('#/')) {
      this.problems.add(`output_schema $ref may only point inside the schema ("#/..."): ${quoted(reference)} at ${quoted(path)}.`);
      return;
    }
    const target = resolvePointer(this.root, reference);
    if (target === undefined) {
      this.problems.add(`output_schema $ref ${quoted(reference)} names nothing in the schema.`);
      return;
    }
    // A schema that refers to itself would let validation recurse without consuming the report.
    if (followed.has(target)) {
      this.problems.add(`output_schema may not be recursive: ${quoted(reference)} refers back to itself.`);
      return;
    }
    this.visit(target, reference.slice(1), new Set([...followed, target]));
  }
}

export interface SchemaLimitCheck {
  /** Every limit the schema passes over (its subschemas, properties, enums, patterns, bounds and refs). */
  problems: string[];
  /** Its patterns, compiled on RE2. */
  patterns: ReadonlyMap<string, RE2JS>;
}

/** Checks an output_schema against OUTPUT_SCHEMA_LIMITS, compiling its patterns on the way. */
export function checkLimits(root: JsonObject): SchemaLimitCheck {
  const census = new SchemaCensus(root);
  census.visit(root, '', new Set());
  return { problems: [...census.problems], patterns: census.patterns };
}
