// How far lexical ranking alone gets on Cranfield: classical single-pass models (BM25, BM25F over title and text,
// query likelihood with Dirichlet smoothing, DFR PL2 and DPH) and BM25 with RM3 pseudo-relevance feedback, each
// over a grid of its parameters. Cranfield's 1400 abstracts are the whole collection (no distractor pages) and the
// words are those Postgres's 'english' text search configuration makes, the tokenizer Sift's index uses for English
// pages, so the gap between this ceiling and Sift's basic and advanced depths in run.ts is the ranking, not the
// tokenizer. The best figure of a grid is tuned on the very queries it is scored on and flatters; the 2-fold
// cross-validated figure beside it (parameters picked on the odd query ids and scored on the even ones, and the
// other way round) is the fair one to compare. Every document is scored, ties break by ascending numeric corpus id.
// Metric: nDCG@10 of ranking-metrics.ts (judgements of bench-corpora.ts), mean over the 225 queries.
// Term-proximity models (BM25TP, sequential dependence) and RM3 with feedback terms limited to df <= 10% were tried
// as well and beat neither BM25F nor BM25+RM3, so they are left out.
// Postgres only tokenizes (to_tsvector): no database or table is created. BENCH_DATABASE_URL picks the server
// (default postgresql://postgres@127.0.0.1:5432/postgres).
// Run: SIFT_BENCH_DATA=/work/shared/bench-data node scripts/run-ts.js bench/search-quality/lexical-ceiling.ts
import { loadavg } from 'node:os';
import { Client } from 'pg';
import { inverseDocumentFrequency } from '@sift/search-index';
import { cranfieldJudgements, readCranfieldJsonl } from './bench-corpora';
import { mean, ndcgAtK } from './ranking-metrics';
import type { Judgements } from './ranking-metrics';

const databaseUrl = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const cutoff = 10;

/** One text's lexemes: how often each occurs and where it first does (1-based tsvector position). */
type TermVector = Map<string, { frequency: number; firstPosition: number }>;

interface Posting {
  document: number;
  frequency: number;
}

/** One field of every document, indexed by document position (documents in ascending numeric id). */
interface Field {
  postings: Map<string, Posting[]>;
  vectors: TermVector[];
  lengths: Float64Array;
  totalLength: number;
  averageLength: number;
}

interface Collection {
  ids: string[];
  /** Title and text as one field (BEIR's text already begins with the title, so title words count twice). */
  whole: Field;
  title: Field;
  body: Field;
}

interface WeightedTerm {
  lexeme: string;
  weight: number;
}

interface Query {
  id: string;
  /** In the order of their first occurrence in the query: summing in a fixed order keeps the figures reproducible. */
  terms: WeightedTerm[];
  judgements: Judgements;
}

type ModelParameters = Record<string, number>;
// Type aliases rather than interfaces: only those are assignable to ModelParameters' index signature.
type Bm25Parameters = { k1: number; b: number };
type Bm25fParameters = { k1: number; titleWeight: number; titleB: number; bodyB: number };
type FeedbackParameters = { feedbackDocuments: number; feedbackTerms: number; originalWeight: number };

interface Family<P extends ModelParameters> {
  name: string;
  grid: P[];
  /** The textbook setting, when the family has one. */
  defaults?: P;
  score: (query: Query, parameters: P) => Float64Array;
}

interface Trial<P extends ModelParameters> {
  parameters: P;
  perQuery: number[];
  mean: number;
}

interface Bench {
  collection: Collection;
  queries: Query[];
}

interface Row {
  name: string;
  settings: number;
  best: Trial<ModelParameters>;
  crossValidated: number;
  atDefaults?: Trial<ModelParameters>;
}



/** All texts in one statement: a round trip per text would cost more than the tokenizing. */
async function tokenize(client: Client, texts: string[]): Promise<TermVector[]> {
  const { rows } = await client.query<{ text_number: number; lexeme: string; frequency: number; first_position: number }>(
    `SELECT source.text_number::int AS text_number, term.lexeme, cardinality(term.positions) AS frequency,
            term.positions[1] AS first_position
       FROM unnest($1::text[]) WITH ORDINALITY AS source(text, text_number),
            unnest(to_tsvector('english', source.text)) AS term`,
    [texts],
  );
  const vectors = texts.map((): TermVector => new Map());
  for (const row of rows) vectors[row.text_number - 1].set(row.lexeme, { frequency: row.frequency, firstPosition: row.first_position });
  return vectors;
}

function buildField(vectors: TermVector[]): Field {
  const postings = new Map<string, Posting[]>();
  const lengths = new Float64Array(vectors.length);
  vectors.forEach((vector, document) => {
    for (const [lexeme, { frequency }] of vector) {
      const list = postings.get(lexeme) ?? [];
      list.push({ document, frequency });
      postings.set(lexeme, list);
      lengths[document] += frequency;
    }
  });
  const totalLength = lengths.reduce((sum, length) => sum + length, 0);
  return { postings, vectors, lengths, totalLength, averageLength: totalLength / vectors.length };
}

async function loadCranfield(): Promise<Bench> {
  const byNumericId = (left: { _id: string }, right: { _id: string }) => Number(left._id) - Number(right._id);
  const documents = readCranfieldJsonl<{ _id: string; title?: string; text: string }>('corpus.jsonl').sort(byNumericId);
  const queryLines = readCranfieldJsonl<{ _id: string; text: string }>('queries.jsonl').sort(byNumericId);
  const judgements = cranfieldJudgements();
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const titles = documents.map((document) => document.title ?? '');
    const collection: Collection = {
      ids: documents.map((document) => document._id),
      // Tokenized as one text rather than merged from the two fields, exactly as a title-and-text column would be.
      whole: buildField(await tokenize(client, documents.map((document, index) => `${titles[index]} ${document.text}`))),
      title: buildField(await tokenize(client, titles)),
      body: buildField(await tokenize(client, documents.map((document) => document.text))),
    };
    const queryVectors = await tokenize(client, queryLines.map((line) => line.text));
    const queries = queryLines.map((line, index): Query => ({
      id: line._id,
      terms: [...queryVectors[index]]
        .sort(([, left], [, right]) => left.firstPosition - right.firstPosition)
        .map(([lexeme, { frequency }]) => ({ lexeme, weight: frequency })),
      judgements: judgements.get(line._id) ?? new Map<string, number>(),
    }));
    return { collection, queries };
  } finally {
    await client.end();
  }
}

function collectionFrequency(field: Field, lexeme: string): number {
  return (field.postings.get(lexeme) ?? []).reduce((sum, posting) => sum + posting.frequency, 0);
}

function bm25(field: Field, terms: WeightedTerm[], { k1, b }: Bm25Parameters): Float64Array {
  const documentCount = field.lengths.length;
  const scores = new Float64Array(documentCount);
  for (const { lexeme, weight } of terms) {
    const postings = field.postings.get(lexeme);
    if (!postings) continue;
    const termIdf = inverseDocumentFrequency(postings.length, documentCount);
    for (const { document, frequency } of postings) {
      scores[document] += (weight * termIdf * frequency * (k1 + 1)) / (frequency + k1 * (1 - b + (b * field.lengths[document]) / field.averageLength));
    }
  }
  return scores;
}

/**
 * BM25F (Robertson, Zaragoza and Taylor 2004): each field's frequency normalised by that field's length and weighted,
 * then one saturation of the sum, so a term in both fields is not counted twice; idf over title and text as one.
 */
function bm25f(collection: Collection, query: Query, parameters: Bm25fParameters): Float64Array {
  const { k1, titleWeight, titleB, bodyB } = parameters;
  const { title, body } = collection;
  const documentCount = collection.ids.length;
  const scores = new Float64Array(documentCount);
  for (const { lexeme, weight } of query.terms) {
    const documentFrequency = collection.whole.postings.get(lexeme)?.length ?? 0;
    if (!documentFrequency) continue;
    const termIdf = inverseDocumentFrequency(documentFrequency, documentCount);
    const pseudoFrequencies = new Map<number, number>();
    for (const { document, frequency } of title.postings.get(lexeme) ?? []) {
      const normalised = (titleWeight * frequency) / (1 - titleB + (titleB * title.lengths[document]) / title.averageLength);
      pseudoFrequencies.set(document, (pseudoFrequencies.get(document) ?? 0) + normalised);
    }
    for (const { document, frequency } of body.postings.get(lexeme) ?? []) {
      const normalised = frequency / (1 - bodyB + (bodyB * body.lengths[document]) / body.averageLength);
      pseudoFrequencies.set(document, (pseudoFrequencies.get(document) ?? 0) + normalised);
    }
    for (const [document, pseudo] of pseudoFrequencies) scores[document] += (weight * termIdf * pseudo * (k1 + 1)) / (k1 + pseudo);
  }
  return scores;
}

/** Query likelihood with Dirichlet smoothing; every document gets the smoothed score of each query term it lacks. */
function dirichlet(field: Field, query: Query, { mu }: { mu: number }): Float64Array {
  const scores = new Float64Array(field.lengths.length);
  for (const { lexeme, weight } of query.terms) {
    const postings = field.postings.get(lexeme);
    if (!postings) continue;
    const background = collectionFrequency(field, lexeme) / field.totalLength;
    for (let document = 0; document < scores.length; document += 1) scores[document] += weight * Math.log((mu * background) / (field.lengths[document] + mu));
    for (const { document, frequency } of postings) scores[document] += weight * Math.log((frequency + mu * background) / (mu * background));
  }
  return scores;
}

/** DFR PL2 as Terrier defines it: Poisson randomness, Laplace after-effect, normalisation 2 with parameter c. */
function pl2(field: Field, query: Query, { c }: { c: number }): Float64Array {
  const documentCount = field.lengths.length;
  const scores = new Float64Array(documentCount);
  for (const { lexeme, weight } of query.terms) {
    const postings = field.postings.get(lexeme);
    if (!postings) continue;
    const lambda = collectionFrequency(field, lexeme) / documentCount;
    for (const { document, frequency } of postings) {
      const tfn = frequency * Math.log2(1 + (c * field.averageLength) / field.lengths[document]);
      scores[document] +=
        (weight / (tfn + 1)) * (tfn * Math.log2(1 / lambda) + lambda * Math.LOG2E + 0.5 * Math.log2(2 * Math.PI * tfn) + tfn * (Math.log2(tfn) - Math.LOG2E));
    }
  }
  return scores;
}

/** DFR DPH as Terrier defines it: hypergeometric, parameter-free. */
function dph(field: Field, query: Query): Float64Array {
  const documentCount = field.lengths.length;
  const scores = new Float64Array(documentCount);
  for (const { lexeme, weight } of query.terms) {
    const postings = field.postings.get(lexeme);
    if (!postings) continue;
    const termCollectionFrequency = collectionFrequency(field, lexeme);
    for (const { document, frequency } of postings) {
      const length = field.lengths[document];
      const share = frequency / length;
      // A document made of this one term has normalisation 0; Terrier would compute 0 × −∞ = NaN.
      if (share >= 1) continue;
      const information =
        frequency * Math.log2(((frequency * field.averageLength) / length) * (documentCount / termCollectionFrequency)) +
        0.5 * Math.log2(2 * Math.PI * frequency * (1 - share));
      scores[document] += ((weight * (1 - share) * (1 - share)) / (frequency + 1)) * information;
    }
  }
  return scores;
}

/**
 * RM3 as Anserini does it: the first pass's top documents, each one's term distribution weighted by its BM25 score;
 * the heaviest terms, normalised, mixed with the normalised query; then BM25 again with the mixed weights.
 */
function bm25Rm3(field: Field, query: Query, parameters: Bm25Parameters & FeedbackParameters): Float64Array {
  const { feedbackDocuments, feedbackTerms, originalWeight } = parameters;
  const firstPass = bm25(field, query.terms, parameters);
  const feedback = new Map<string, number>();
  for (const document of topDocuments(firstPass, feedbackDocuments)) {
    for (const [lexeme, { frequency }] of field.vectors[document]) {
      feedback.set(lexeme, (feedback.get(lexeme) ?? 0) + (firstPass[document] * frequency) / field.lengths[document]);
    }
  }
  const kept = [...feedback].sort(([leftTerm, left], [rightTerm, right]) => right - left || (leftTerm < rightTerm ? -1 : 1)).slice(0, feedbackTerms);
  const feedbackTotal = kept.reduce((sum, [, weight]) => sum + weight, 0);
  const queryTotal = query.terms.reduce((sum, term) => sum + term.weight, 0);
  const mixed = new Map(query.terms.map((term) => [term.lexeme, (originalWeight * term.weight) / queryTotal]));
  for (const [lexeme, weight] of kept) mixed.set(lexeme, (mixed.get(lexeme) ?? 0) + ((1 - originalWeight) * weight) / feedbackTotal);
  return bm25(field, [...mixed].map(([lexeme, weight]) => ({ lexeme, weight })), parameters);
}

function rm3On(field: Field, base: Bm25Parameters): (query: Query, feedback: FeedbackParameters) => Float64Array {
  return (query, feedback) => bm25Rm3(field, query, { ...base, ...feedback });
}

/** The k highest-scored documents; on a tie the lower position, i.e. the lower numeric corpus id, ranks first. */
function topDocuments(scores: Float64Array, k: number): number[] {
  const ranked: number[] = [];
  for (let document = 0; document < scores.length; document += 1) {
    const score = scores[document];
    if (ranked.length === k && !(score > scores[ranked[k - 1]])) continue;
    let slot = Math.min(ranked.length, k - 1);
    for (; slot > 0 && score > scores[ranked[slot - 1]]; slot -= 1) ranked[slot] = ranked[slot - 1];
    ranked[slot] = document;
  }
  return ranked;
}

/** Every combination of the values, the first axis varying slowest: grid order decides which of equal means is best. */
function grid<K extends string>(axes: Record<K, number[]>): Record<K, number>[] {
  let points: ModelParameters[] = [{}];
  for (const [name, values] of Object.entries<number[]>(axes)) points = points.flatMap((point) => values.map((value) => ({ ...point, [name]: value })));
  return points as Record<K, number>[];
}

function label(parameters: ModelParameters): string {
  return Object.entries(parameters).map(([name, value]) => `${name}=${value}`).join(' ') || '–';
}

function strictlyBest<P extends ModelParameters>(trials: Trial<P>[], meanOf: (trial: Trial<P>) => number): Trial<P> {
  return trials.reduce((best, trial) => (meanOf(trial) > meanOf(best) ? trial : best));
}

/** Parameters picked on the queries of one id parity and scored on the other; the mean over all queries. */
function crossValidated<P extends ModelParameters>(trials: Trial<P>[], queries: Query[]): number {
  const ofParity = (trial: Trial<P>, parity: number) => trial.perQuery.filter((_, index) => Number(queries[index].id) % 2 === parity);
  let sum = 0;
  for (const parity of [1, 0]) {
    const picked = strictlyBest(trials, (trial) => mean(ofParity(trial, 1 - parity)));
    sum += ofParity(picked, parity).reduce((total, value) => total + value, 0);
  }
  return sum / queries.length;
}

function evaluateFamily<P extends ModelParameters>(family: Family<P>, { collection, queries }: Bench): { row: Row; best: Trial<P> } {
  const trialOf = (parameters: P): Trial<P> => {
    const perQuery = queries.map((query) =>
      ndcgAtK(topDocuments(family.score(query, parameters), cutoff).map((document) => collection.ids[document]), query.judgements, cutoff),
    );
    return { parameters, perQuery, mean: mean(perQuery) };
  };
  const trials = family.grid.map(trialOf);
  const best = strictlyBest(trials, (trial) => trial.mean);
  const row: Row = {
    name: family.name,
    settings: trials.length,
    best,
    crossValidated: crossValidated(trials, queries),
    atDefaults: family.defaults && trialOf(family.defaults),
  };
  return { row, best };
}

function printTable(rows: Row[]): void {
  console.log('| Model | Settings | Best parameters | nDCG@10 best | 2-fold CV | At defaults |');
  console.log('|---|---|---|---|---|---|');
  for (const { name, settings, best, crossValidated, atDefaults } of rows) {
    const defaults = atDefaults ? `${atDefaults.mean.toFixed(4)} (${label(atDefaults.parameters)})` : '–';
    console.log(`| ${name} | ${settings} | ${label(best.parameters)} | ${best.mean.toFixed(4)} | ${crossValidated.toFixed(4)} | ${defaults} |`);
  }
}

/** Each model over a grid around its textbook setting; RM3 on the best BM25 and on the textbook one. */
function measureStandardGrids(bench: Bench): { rows: Row[]; bestBm25: Trial<Bm25Parameters> } {
  const { collection } = bench;
  const { whole } = collection;
  const unweighted = (query: Query) => query.terms.map((term) => ({ ...term, weight: 1 }));
  const bm25Grid = grid({ k1: [0.6, 0.9, 1.2, 1.5, 2], b: [0.3, 0.5, 0.75, 0.9] });
  const bm25Defaults = { k1: 1.2, b: 0.75 };
  const rm3Grid = grid({ feedbackDocuments: [5, 10, 20], feedbackTerms: [10, 20, 40], originalWeight: [0.3, 0.5, 0.7] });
  const withQueryFrequencies = evaluateFamily(
    { name: 'BM25, title+text, qtf', grid: bm25Grid, defaults: bm25Defaults, score: (query, parameters) => bm25(whole, query.terms, parameters) },
    bench,
  );
  const bestBm25 = withQueryFrequencies.best;
  const rowOf = <P extends ModelParameters>(family: Family<P>) => evaluateFamily(family, bench).row;
  const rows = [
    withQueryFrequencies.row,
    rowOf({ name: 'BM25, title+text, no qtf', grid: bm25Grid, defaults: bm25Defaults, score: (query, parameters) => bm25(whole, unweighted(query), parameters) }),
    rowOf({
      name: 'BM25F, title and text',
      grid: grid({ k1: [0.6, 0.9, 1.2, 1.5, 2], titleWeight: [1, 2, 3, 5], titleB: [0.5, 0.75], bodyB: [0.5, 0.75] }),
      defaults: { k1: 1.2, titleWeight: 2, titleB: 0.75, bodyB: 0.75 },
      score: (query, parameters) => bm25f(collection, query, parameters),
    }),
    rowOf({ name: 'QL Dirichlet', grid: grid({ mu: [50, 100, 200, 300, 500, 1000, 2000] }), defaults: { mu: 1000 }, score: (query, parameters) => dirichlet(whole, query, parameters) }),
    rowOf({ name: 'DFR PL2', grid: grid({ c: [1, 2, 5, 7] }), defaults: { c: 1 }, score: (query, parameters) => pl2(whole, query, parameters) }),
    rowOf({ name: 'DFR DPH', grid: [{}], defaults: {}, score: (query) => dph(whole, query) }),
    // The base is tuned on all queries, so this row's cross-validated figure is slightly optimistic.
    rowOf({ name: `BM25+RM3 on BM25 ${label(bestBm25.parameters)}`, grid: rm3Grid, score: rm3On(whole, bestBm25.parameters) }),
    rowOf({
      name: `BM25+RM3 on BM25 ${label(bm25Defaults)}`,
      grid: rm3Grid,
      defaults: { feedbackDocuments: 10, feedbackTerms: 10, originalWeight: 0.5 },
      score: rm3On(whole, bm25Defaults),
    }),
  ];
  return { rows, bestBm25 };
}

/** The standard BM25 and BM25F grids peak at their edges (k1 2, title weight 5); these go past them. */
function measureExtendedGrids(bench: Bench, bestStandardBm25: Trial<Bm25Parameters>): Row[] {
  const { collection } = bench;
  const { whole } = collection;
  const extendedBm25 = evaluateFamily(
    { name: 'BM25, title+text, qtf, extended', grid: grid({ k1: [2.5, 3, 4, 5, 7], b: [0.5, 0.6, 0.75, 0.9] }), score: (query, parameters) => bm25(whole, query.terms, parameters) },
    bench,
  );
  const base = (extendedBm25.best.mean > bestStandardBm25.mean ? extendedBm25.best : bestStandardBm25).parameters;
  const extendedBm25f = evaluateFamily(
    {
      name: 'BM25F, title and text, extended',
      grid: grid({ k1: [1.5, 2, 3, 4], titleWeight: [5, 8, 12], titleB: [0.5, 0.75, 1], bodyB: [0.5, 0.75, 0.9] }),
      score: (query, parameters) => bm25f(collection, query, parameters),
    },
    bench,
  );
  const extendedRm3 = evaluateFamily(
    {
      name: `BM25+RM3 on BM25 ${label(base)}, extended`,
      grid: grid({ feedbackDocuments: [2, 3, 5, 7, 10], feedbackTerms: [5, 10, 20], originalWeight: [0.1, 0.2, 0.3, 0.4, 0.5] }),
      score: rm3On(whole, base),
    },
    bench,
  );
  return [extendedBm25.row, extendedBm25f.row, extendedRm3.row];
}

async function main(): Promise<void> {
  const started = Date.now();
  const loadAtStart = loadavg();
  const bench = await loadCranfield();
  const standard = measureStandardGrids(bench);
  const rows = [...standard.rows, ...measureExtendedGrids(bench, standard.bestBm25)];
  console.log(`Cranfield alone: ${bench.collection.ids.length} documents, ${bench.queries.length} queries, lexemes of Postgres's 'english' configuration\n`);
  printTable(rows);
  console.log(`\nload average at start: ${loadAtStart.map((value) => value.toFixed(2)).join(' ')}`);
  console.log(`load average at end: ${loadavg().map((value) => value.toFixed(2)).join(' ')}`);
  console.log(`wall time: ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

void main();
