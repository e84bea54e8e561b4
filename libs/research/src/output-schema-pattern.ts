import type { CodeOptions } from 'ajv';
import { RE2JS } from 're2js';

/** The longest `pattern` (or `patternProperties` name) an output_schema may hold, in characters. */
export const MAXIMUM_PATTERN_CHARACTERS = 500;

/**
 * The largest RE2 program one pattern may compile to. RE2 matches in time linear in the text, but the factor is
 * the program's size: `[a-z]{1,1000}$` (2,002) takes some 200 ms on 10,000 characters, `\S+@\S+` (9) a fraction
 * of a millisecond.
 */
export const MAXIMUM_PATTERN_PROGRAM_SIZE = 1_000;

/** Characters of RE2's own complaint kept in a refusal (it quotes the part of the pattern it stopped at). */
const REASON_CHARACTERS = 120;

/**
 * A caller's regular expression compiled on RE2, which matches in time linear in the text (no catastrophic
 * backtracking), or why it cannot be. The pattern is read as ECMA-262 (JSON Schema's dialect) and translated to RE2's
 * syntax (`\u00e9`, `(?<name>…)`); what RE2 cannot run in linear time (lookaround, backreferences) is refused.
 */
export function compileLinearPattern(source: string): RE2JS | string {
  if (source.length > MAXIMUM_PATTERN_CHARACTERS) return `is longer than ${MAXIMUM_PATTERN_CHARACTERS} characters`;
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(RE2JS.translateRegExp(source));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return `is not a regular expression RE2 can run (no lookaround or backreferences): ${reason.slice(0, REASON_CHARACTERS)}`;
  }
  if (compiled.programSize() > MAXIMUM_PATTERN_PROGRAM_SIZE) {
    return `is too complex (RE2 program size ${compiled.programSize()}, at most ${MAXIMUM_PATTERN_PROGRAM_SIZE})`;
  }
  return compiled;
}

/**
 * Ajv's regular-expression engine for one output_schema: every `pattern` and `patternProperties` name runs on RE2, as
 * Ajv's `.test(text)` expects (a match anywhere in the text, as JSON Schema says). `checked` holds the schema's
 * patterns as the limits compiled them (Ajv asks again at each use); one it does not hold is compiled here, and a
 * refusal throws rather than fall back to backtracking.
 */
export function linearRegExpEngine(checked: ReadonlyMap<string, RE2JS>): NonNullable<CodeOptions['regExp']> {
  const engine = (source: string) => {
    const compiled = checked.get(source) ?? compileLinearPattern(source);
    if (typeof compiled === 'string') throw new Error(`pattern ${compiled}`);
    return compiled;
  };
  // Only Ajv's standalone code generation (not used here) writes this name into the code it emits.
  return Object.assign(engine, { code: 'compileLinearPattern' });
}
