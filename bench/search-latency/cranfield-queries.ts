import { readCranfieldJsonl } from '../search-quality/bench-corpora';

/** The 225 Cranfield queries' texts, in file order: the search-latency benchmarks' query load. */
export function cranfieldQueryTexts(): string[] {
  return readCranfieldJsonl<{ text: string }>('queries.jsonl').map((query) => query.text.trim());
}
