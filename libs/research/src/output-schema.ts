import Ajv, { type ValidateFunction } from 'ajv';
import { checkLimits, listed, sizeProblem, summarized } from './output-schema-limits';
import { linearRegExpEngine } from './output-schema-pattern';

export { OUTPUT_SCHEMA_LIMITS } from './output-schema-limits';

/** Characters of Ajv's own complaint about a schema kept in a refusal. */
const COMPILE_REASON_CHARACTERS = 300;

// strict: false accepts the annotations callers commonly add (examples, titles of their own); allErrors for a full
// repair hint; no logger, as a format Ajv does not know would be logged on every compile of a caller's schema.
const AJV_OPTIONS = { strict: false, allErrors: true, logger: false } as const;
/**
 * Checks schemas against JSON Schema's meta-schema, compiled once: each output_schema gets an Ajv of its own (Ajv
 * keeps every schema it compiles), which then need not compile the meta-schema again.
 */
const metaSchemaChecker = new Ajv(AJV_OPTIONS);

function shortened(reason: string): string {
  return reason.length > COMPILE_REASON_CHARACTERS ? `${reason.slice(0, COMPILE_REASON_CHARACTERS)}…` : reason;
}

export type OutputSchema = Record<string, unknown>;

/** A compiled output_schema: validates a report object and says why one does not fit. */
export interface OutputSchemaValidator {
  schema: OutputSchema;
  /** null when the value validates, else the validator's errors (the first few, and how many more) as one readable line. */
  problemsWith(value: unknown): string | null;
  /**
   * Where a report object breaks the schema: `fields`, its top-level properties whose values do not fit; `other`,
   * the problems no one property's value causes (a constraint on the whole object), as problemsWith words them, or
   * null. A required property that is missing is neither: it is a field not filled.
   */
  unfitFields(value: unknown): { fields: string[]; other: string | null };
}

/**
 * Checks a caller's output_schema before any work: a JSON Schema object with `properties` (an object) and an
 * optional `required` list naming some of them, within OUTPUT_SCHEMA_LIMITS, that compiles. Returns the compiled
 * validator, or the reason it is refused (the gateway answers 400 with it). The limits are checked before Ajv
 * compiles anything, and every pattern runs on RE2, so neither compiling nor validating can hold the event loop.
 */
export function compileOutputSchema(schema: unknown): OutputSchemaValidator | string {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return 'output_schema must be a JSON Schema object.';
  const tooLarge = sizeProblem(schema);
  if (tooLarge !== null) return tooLarge;
  const root = schema as OutputSchema;
  if (typeof root.properties !== 'object' || root.properties === null || Array.isArray(root.properties)) {
    return 'output_schema must have "properties", an object naming the fields of the report.';
  }
  if (Object.keys(root.properties).length === 0) return 'output_schema.properties must name at least one field.';
  if (root.required !== undefined) {
    if (!Array.isArray(root.required) || !root.required.every((name) => typeof name === 'string')) {
      return 'output_schema.required must be a list of property names.';
    }
    const unknown = root.required.filter((name) => !Object.prototype.hasOwnProperty.call(root.properties, name));
    if (unknown.length > 0) return `output_schema.required names fields that are not in properties: ${listed(unknown)}.`;
  }
  const limits = checkLimits(root);
  if (limits.problems.length > 0) return summarized(limits.problems);
  const complete = { type: 'object', ...root };
  let validate: ValidateFunction;
  try {
    if (!metaSchemaChecker.validateSchema(complete)) return `output_schema is not a valid JSON Schema: ${shortened(`schema is invalid: ${metaSchemaChecker.errorsText()}`)}`;
    validate = new Ajv({ ...AJV_OPTIONS, validateSchema: false, inlineRefs: false, code: { regExp: linearRegExpEngine(limits.patterns) } }).compile(complete);
  } catch (error) {
    return `output_schema is not a valid JSON Schema: ${shortened((error as Error).message)}`;
  }
  return {
    schema: root,
    problemsWith(value) {
      if (validate(value)) return null;
      return summarized(
        (validate.errors ?? []).map((problem) => `${problem.instancePath || '/'} ${problem.message ?? 'is invalid'}`),
        '; ',
      );
    },
    unfitFields(value) {
      if (validate(value)) return { fields: [], other: null };
      const fields = new Set<string>();
      const other: string[] = [];
      for (const problem of validate.errors ?? []) {
        const [, first] = problem.instancePath.split('/');
        if (first !== undefined) fields.add(first.replace(/~1/g, '/').replace(/~0/g, '~'));
        else if (problem.keyword !== 'required') other.push(`/ ${problem.message ?? 'is invalid'}`);
      }
      return { fields: [...fields], other: other.length > 0 ? summarized(other, '; ') : null };
    },
  };
}

/**
 * The fields of output_schema's `properties` a report object does not hold: those its writer found no source for (or
 * a model left out). Read from the stored report and request, so every task's answer says it, whoever wrote it.
 */
export function unfilledFields(schema: OutputSchema | undefined, content: unknown): string[] {
  if (!schema || typeof content !== 'object' || content === null || Array.isArray(content)) return [];
  const properties = typeof schema.properties === 'object' && schema.properties !== null ? Object.keys(schema.properties) : [];
  return properties.filter((name) => !Object.prototype.hasOwnProperty.call(content, name));
}
