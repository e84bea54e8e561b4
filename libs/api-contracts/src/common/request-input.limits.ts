/**
 * Limits every request body and query string is held to before any DTO sees it. They protect what lies behind
 * validation: class-transformer and class-validator recurse once per level (a body nested 1500 levels overflowed
 * the stack), and Postgres refuses NUL in text (22021) and lone surrogates in JSON (22P05).
 */
export const REQUEST_INPUT_LIMITS = {
  /** The deepest DTO is three levels; JSON Schemas sent to research stay far below this. */
  maxNestingDepth: 64,
  /**
   * Values in one body (array items, object fields, the body itself): class-transformer and Nest's pipes walk every
   * one before any DTO limit is checked, about 40 ms per 10,000 on a two-core machine's event loop. The largest valid
   * body, a research output_schema of 32,768 characters, holds fewer than 17,000.
   */
  maxValues: 50_000,
} as const;

/** A project id (X-Project-ID, `project_id`): longer ones are refused, and the column's index stays small. */
export const PROJECT_ID_MAX_CHARACTERS = 512;

/** The largest value of a Postgres `integer` column (credit limits, counts). */
export const DATABASE_INTEGER_MAX = 2_147_483_647;

// NUL, a high surrogate not followed by a low one, or a low surrogate not preceded by a high one.
const UNSAFE_TEXT = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** True for text Postgres stores as sent: no NUL character and no unpaired UTF-16 surrogate. */
export function isDatabaseSafeText(text: string): boolean {
  return !UNSAFE_TEXT.test(text);
}

/** Why a request input is refused, in words for the caller; the field is a dotted path (`urls_scores.0.comment`). */
export type UnsafeInput =
  | { problem: 'too-deep'; maxDepth: number }
  | { problem: 'too-many-values'; maxValues: number }
  | { problem: 'unsafe-text'; field: string };

/** A value still to check, with the key it was found under; its dotted path is built only when it is refused. */
interface PendingInput {
  value: unknown;
  depth: number;
  key?: string;
  parent?: PendingInput;
}

/**
 * The first reason to refuse a parsed JSON value (or query object): nesting deeper than the limit, more values than
 * the limit, or a string, value or key, that is not database-safe. Walks iteratively, so the check itself cannot
 * overflow the stack, and stops at the first reason.
 */
export function findUnsafeInput(
  value: unknown,
  maxDepth: number = REQUEST_INPUT_LIMITS.maxNestingDepth,
  maxValues: number = REQUEST_INPUT_LIMITS.maxValues,
): UnsafeInput | undefined {
  const pending: PendingInput[] = [{ value, depth: 0 }];
  let values = 1;
  while (pending.length > 0) {
    const item = pending.pop() as PendingInput;
    if (typeof item.value === 'string') {
      if (!isDatabaseSafeText(item.value)) return { problem: 'unsafe-text', field: pathOf(item) };
      continue;
    }
    if (item.value === null || typeof item.value !== 'object') continue;
    if (item.depth >= maxDepth) return { problem: 'too-deep', maxDepth };
    const object = item.value as Record<string, unknown>;
    const keys = Object.keys(object);
    values += keys.length;
    if (values > maxValues) return { problem: 'too-many-values', maxValues };
    for (const key of keys) {
      if (!isDatabaseSafeText(key)) return { problem: 'unsafe-text', field: pathOf(item) };
      pending.push({ value: object[key], depth: item.depth + 1, key, parent: item });
    }
  }
  return undefined;
}

/** `urls_scores.0.comment`; `body` for the body itself. */
function pathOf(item: PendingInput): string {
  const keys: string[] = [];
  for (let at: PendingInput | undefined = item; at?.key !== undefined; at = at.parent) keys.push(at.key);
  return keys.length > 0 ? keys.reverse().join('.') : 'body';
}

/** The caller-facing sentence for an UnsafeInput. */
export function describeUnsafeInput(unsafe: UnsafeInput): string {
  switch (unsafe.problem) {
    case 'too-deep':
      return `JSON nested deeper than ${unsafe.maxDepth} levels`;
    case 'too-many-values':
      return `JSON holding more than ${unsafe.maxValues} values (array items and object fields)`;
    case 'unsafe-text':
      return `${unsafe.field} contains a NUL character or an unpaired UTF-16 surrogate`;
  }
}
