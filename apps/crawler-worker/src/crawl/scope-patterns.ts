import { RE2JS } from 're2js';
import { InvalidPatternError } from './invalid-pattern.error';

// RE2 matches in time linear in the input, so a caller's regex cannot hang a worker; these bounds also cap the
// size of the compiled program and of the text it runs on, so the linear factor itself stays small.
const MAX_PATTERN_LENGTH = 1000;
const MAX_PATTERNS_PER_FIELD = 100;
const MAX_PROGRAM_SIZE = 20_000;
const MAX_MATCHED_LENGTH = 2048;

export interface ScopePatternInput {
  selectPaths?: string[];
  selectDomains?: string[];
  excludePaths?: string[];
  excludeDomains?: string[];
}

/** A compiled list of patterns; matches when any pattern is found anywhere in the text (Python `re.search`). */
export class PatternList {
  constructor(private readonly patterns: RE2JS[]) {}

  get isEmpty(): boolean {
    return this.patterns.length === 0;
  }

  matchesAny(text: string): boolean {
    const bounded = text.slice(0, MAX_MATCHED_LENGTH);
    return this.patterns.some((pattern) => pattern.test(bounded));
  }
}

export interface ScopePatterns {
  selectPaths: PatternList;
  selectDomains: PatternList;
  excludePaths: PatternList;
  excludeDomains: PatternList;
}

/** Compiles the four scope lists of a crawl request; throws InvalidPatternError for the gateway's 400. */
export function compileScopePatterns(input: ScopePatternInput): ScopePatterns {
  return {
    selectPaths: compileField('select_paths', input.selectPaths),
    selectDomains: compileField('select_domains', input.selectDomains, RE2JS.CASE_INSENSITIVE),
    excludePaths: compileField('exclude_paths', input.excludePaths),
    excludeDomains: compileField('exclude_domains', input.excludeDomains, RE2JS.CASE_INSENSITIVE),
  };
}

function compileField(field: InvalidPatternError['field'], patterns: string[] | undefined, flags = 0): PatternList {
  const sources = patterns ?? [];
  if (sources.length > MAX_PATTERNS_PER_FIELD) {
    throw new InvalidPatternError(field, sources[MAX_PATTERNS_PER_FIELD], `at most ${MAX_PATTERNS_PER_FIELD} patterns`);
  }
  return new PatternList(sources.map((source) => compileOne(field, source, flags)));
}

function compileOne(field: InvalidPatternError['field'], source: string, flags: number): RE2JS {
  if (typeof source !== 'string' || source.length === 0) throw new InvalidPatternError(field, String(source), 'empty pattern');
  if (source.length > MAX_PATTERN_LENGTH) {
    throw new InvalidPatternError(field, source, `longer than ${MAX_PATTERN_LENGTH} characters`);
  }
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(source, flags);
  } catch (error) {
    // RE2 rejects what it cannot run in linear time (backreferences, lookaround) as well as malformed syntax.
    throw new InvalidPatternError(field, source, error instanceof Error ? error.message : 'not a regular expression');
  }
  if (compiled.programSize() > MAX_PROGRAM_SIZE) throw new InvalidPatternError(field, source, 'pattern too complex');
  return compiled;
}
