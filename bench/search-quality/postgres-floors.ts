// Plain Postgres full-text search as a floor for POST /search: one statement per query, no HTTP, no service around it.
// The search latency bench times them against POST /search; the search quality bench scores their rankings.
import type { Client } from 'pg';

export interface PostgresFloor {
  name: string;
  /** The relation joined to documents: one row, its column `query` the tsquery made of $1 (the query's text). */
  queryRelation: string;
}

/**
 * The floor issue #14 names: websearch_to_tsquery, which requires every word of the query, so most natural-language
 * queries find no page at all.
 */
export const EVERY_WORD_FLOOR: PostgresFloor = {
  name: 'Postgres FTS floor (websearch_to_tsquery + ts_rank, LIMIT 10)',
  queryRelation: `websearch_to_tsquery('english', $1) AS query`,
};

/**
 * The same ranking over the pages holding any of the query's words: its lexemes (to_tsvector's, stop words out)
 * quoted and joined with |, as a ranked retrieval reads a query.
 */
export const ANY_WORD_FLOOR: PostgresFloor = {
  name: 'Postgres FTS, any query word (lexemes joined with |, ts_rank, LIMIT 10)',
  queryRelation: `(SELECT array_to_string(array(SELECT quote_literal(lexeme)
                                                 FROM unnest(tsvector_to_array(to_tsvector('english', $1))) AS lexeme), ' | ')::tsquery AS query) AS any_word`,
};

export const POSTGRES_FLOORS = [EVERY_WORD_FLOOR, ANY_WORD_FLOOR] as const;

/** The floor's statement: the 10 best pages by ts_rank, with their URLs. */
export function floorStatement(floor: PostgresFloor): string {
  return `SELECT id, url, title, ts_rank(search_vector, query) AS rank
            FROM documents, ${floor.queryRelation}
           WHERE search_vector @@ query
           ORDER BY rank DESC
           LIMIT 10`;
}

/** The URLs a floor returns for one query, best first. */
export async function floorUrls(client: Client, floor: PostgresFloor, query: string): Promise<string[]> {
  return (await client.query<{ url: string }>(floorStatement(floor), [query])).rows.map((row) => row.url);
}

/** How many queries got at least one page, and how many all 10. */
export interface Answers {
  queries: number;
  none: number;
  full: number;
}

export function answersOf(resultCounts: readonly number[]): Answers {
  return { queries: resultCounts.length, none: resultCounts.filter((count) => count === 0).length, full: resultCounts.filter((count) => count >= 10).length };
}

export function describeAnswers(name: string, answers: Answers): string {
  return `${name}: ${answers.queries - answers.none} of ${answers.queries} queries answered (${answers.none} with no page, ${answers.full} with all 10)`;
}
