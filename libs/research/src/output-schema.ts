import Ajv, { type ValidateFunction } from 'ajv';

/** The most properties (at any depth) an output_schema may declare: a report is not a database. */
const MAXIMUM_PROPERTIES = 100;

export type OutputSchema = Record<string, unknown>;

/** A compiled output_schema: validates a report object and says why one does not fit. */
export interface OutputSchemaValidator {
  schema: OutputSchema;
  /** null when the value validates, else the validator's errors as one readable line. */
  problemsWith(value: unknown): string | null;
}

function countProperties(schema: unknown): number {
  if (typeof schema !== 'object' || schema === null) return 0;
  const node = schema as Record<string, unknown>;
  const own = typeof node.properties === 'object' && node.properties !== null ? Object.values(node.properties) : [];
  const items = node.items === undefined ? [] : [node.items];
  return own.length + [...own, ...items].reduce<number>((sum, child) => sum + countProperties(child), 0);
}

/**
 * Checks a caller's output_schema before any work: a JSON Schema object with `properties` (an object) and an
 * optional `required` list naming some of them, that compiles. Returns the compiled validator, or the reason
 * it is refused (the gateway answers 400 with it).
 */
export function compileOutputSchema(schema: unknown): OutputSchemaValidator | string {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return 'output_schema must be a JSON Schema object.';
  const root = schema as OutputSchema;
  if (typeof root.properties !== 'object' || root.properties === null || Array.isArray(root.properties)) {
    return 'output_schema must have "properties", an object naming the fields of the report.';
  }
  if (Object.keys(root.properties).length === 0) return 'output_schema.properties must name at least one field.';
  if (root.required !== undefined) {
    if (!Array.isArray(root.required) || !root.required.every((name) => typeof name === 'string')) {
      return 'output_schema.required must be a list of property names.';
    }
    const unknown = root.required.filter((name) => !(name in (root.properties as object)));
    if (unknown.length > 0) return `output_schema.required names fields that are not in properties: ${unknown.join(', ')}.`;
  }
  if (countProperties(root) > MAXIMUM_PROPERTIES) return `output_schema may declare at most ${MAXIMUM_PROPERTIES} properties.`;
  let validate: ValidateFunction;
  try {
    // strict: false accepts the annotations callers commonly add (examples, titles of their own); allErrors for a full repair hint.
    validate = new Ajv({ strict: false, allErrors: true }).compile({ type: 'object', ...root });
  } catch (error) {
    return `output_schema is not a valid JSON Schema: ${(error as Error).message}`;
  }
  return {
    schema: root,
    problemsWith(value) {
      if (validate(value)) return null;
      return (validate.errors ?? []).map((problem) => `${problem.instancePath || '/'} ${problem.message ?? 'is invalid'}`).join('; ');
    },
  };
}
