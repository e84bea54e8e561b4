import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { benchDataDirectory } from '@sift/testing';

/** The 225 Cranfield queries' texts, in file order: the search-latency benchmarks' query load. */
export function cranfieldQueryTexts(): string[] {
  return readFileSync(join(benchDataDirectory(), 'cranfield', 'beir', 'queries.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => (JSON.parse(line) as { text: string }).text.trim());
}
