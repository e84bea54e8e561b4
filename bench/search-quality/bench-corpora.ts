// The third-party collections the search benchmarks load into one index, as lines of an `admin index import`
// file ({url, title, text} or {url, html}). Read in place from ../shared/bench-data, never copied.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { benchDataDirectory, GIT_DOCS_SITE_ROOT } from '@sift/testing';
// eslint-disable-next-line @nx/enforce-module-boundaries -- the benchmarks share one dataset loader; bench projects are not libraries
import { loadScrapinghub, loadTrafilatura } from '../extraction/datasets';
import type { Judgements } from './ranking-metrics';

/** Cranfield's documents live under this prefix; the corpus id is the rest of the URL. */
export const CRANFIELD_URL_PREFIX = 'https://cranfield.example/doc/';
export const CRANFIELD_DOMAIN = 'cranfield.example';

/** One of Cranfield's BEIR files (`corpus.jsonl`, `queries.jsonl`), a record a line. */
export function readCranfieldJsonl<T>(file: 'corpus.jsonl' | 'queries.jsonl'): T[] {
  return readFileSync(join(benchDataDirectory(), 'cranfield', 'beir', file), 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as T);
}

/** Cranfield's graded judgements by query id: corpus id → gain (5 − Cleverdon's code, so 0 for "not relevant"). */
export function cranfieldJudgements(): Map<string, Judgements> {
  const byQuery = new Map<string, Judgements>();
  const lines = readFileSync(join(benchDataDirectory(), 'cranfield', 'beir', 'qrels', 'test.tsv'), 'utf8').trim().split('\n').slice(1);
  for (const line of lines) {
    const [queryId, corpusId, score] = line.split('\t');
    const judgements = byQuery.get(queryId) ?? new Map<string, number>();
    judgements.set(corpusId, Number(score));
    byQuery.set(queryId, judgements);
  }
  return byQuery;
}

/** Cranfield's 1400 aerodynamics abstracts as {url, title, text}. */
export function cranfieldImportLines(): string[] {
  return readCranfieldJsonl<{ _id: string; title: string; text: string }>('corpus.jsonl').map((document) =>
    JSON.stringify({ url: `${CRANFIELD_URL_PREFIX}${document._id}`, title: document.title, text: document.text }),
  );
}

/** Paths on the Git documentation site (`/git-stash.html`) of every page its sitemap lists. */
export function gitDocsPaths(): string[] {
  const sitemap = readFileSync(join(GIT_DOCS_SITE_ROOT, 'sitemap.xml'), 'utf8');
  return [...sitemap.matchAll(/<loc>http:\/\/127\.0\.0\.1:8080(\/[^<]+)<\/loc>/g)].map((match) => match[1]);
}

/** Every page of the Git documentation site as {url, html} under `origin` (no trailing slash). */
export function gitDocsImportLines(origin: string): string[] {
  return gitDocsPaths().map((path) => JSON.stringify({ url: `${origin}${path}`, html: readFileSync(join(GIT_DOCS_SITE_ROOT, path), 'utf8') }));
}

/** The two extraction corpora (91 news and blog pages, 495 multilingual pages) as {url, html}: the distractors. */
export function extractionCorporaImportLines(): string[] {
  return [...loadScrapinghub(), ...loadTrafilatura()].map((page) => JSON.stringify({ url: page.url, html: page.html }));
}
