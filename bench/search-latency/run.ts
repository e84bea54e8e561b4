// Search latency over HTTP: a 10,000-document index (Cranfield sentences recombined, imported with
// `admin index import` into database sift_bench_latency), the gateway as its own process, 16 concurrent
// autocannon clients on loopback sending rotating queries to POST /search at ultra-fast and basic depth; then,
// as the floor, the same queries from 16 concurrent pg clients as plain Postgres full-text search
// (websearch_to_tsquery + ts_rank, LIMIT 10). Target: basic-depth p50 under 50 ms.
// websearch_to_tsquery requires every word of the query, so for most of these natural-language queries that floor
// finds no page at all; a second floor, "any word" (the query's lexemes joined with |, as a ranked retrieval reads
// them), answers every query, and the bench prints how many queries each floor and POST /search answer.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { Client } from 'pg';
import { readCranfieldJsonl } from '../search-quality/bench-corpora';
import { createBenchKey, dropDatabase, importThroughAdmin, searchOverHttp, startGateway, type GatewayProcess } from '../search-quality/search-stack';
import { synthesiseCorpus, type SourceDocument } from './synthetic-corpus';
import { cranfieldQueryTexts } from './cranfield-queries';
import { ANY_WORD_FLOOR, answersOf, describeAnswers, EVERY_WORD_FLOOR, floorUrls, POSTGRES_FLOORS, floorStatement, type PostgresFloor } from '../search-quality/postgres-floors';

const databaseUrl = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/sift_bench_latency';
const documentCount = Number(process.env.BENCH_DOCUMENTS ?? 10_000);
const durationSeconds = Number(process.env.BENCH_DURATION_SECONDS ?? 20);
const connections = 16;
/** BENCH_REUSE_INDEX=1 keeps an existing sift_bench_latency of the right size instead of re-importing (profiling). */
const reuseIndex = process.env.BENCH_REUSE_INDEX === '1';
/**
 * Seconds of unmeasured load at the same concurrency before each depth's measured run: the gateway's first
 * thousands of requests run slower (JIT tiers, heap growth, each pooled connection's first plans), which the
 * first measured depth would otherwise carry alone.
 */
const warmUpSeconds = Number(process.env.BENCH_WARMUP_SECONDS ?? 5);
/** Sequential requests per depth for the single-client figures. */
const sequentialRequests = Number(process.env.BENCH_SEQUENTIAL_REQUESTS ?? 100);
const depths = ['ultra-fast', 'basic'] as const;

interface Measurement {
  name: string;
  requests: number;
  p50Ms: number;
  p99Ms: number;
  requestsPerSecond: number;
  failures: number;
}

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))];
}

async function measureSearch(gateway: GatewayProcess, apiKey: string, depth: string, queries: string[], seconds = durationSeconds): Promise<Measurement> {
  let next = 0;
  const result = await autocannon({
    url: `${gateway.baseUrl}/search`,
    connections,
    duration: seconds,
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
    requests: [
      {
        // Every request takes the next query, so the 16 connections spread over the whole query set.
        setupRequest: (request) => ({
          ...request,
          body: JSON.stringify({ query: queries[next++ % queries.length], search_depth: depth, max_results: 10 }),
        }),
      },
    ],
  });
  return {
    name: `POST /search, search_depth ${depth}`,
    requests: result.requests.total,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requestsPerSecond: result.requests.total / result.duration,
    failures: result.errors + result.timeouts + result.non2xx,
  };
}

/** A floor's cost: the same queries from the same number of concurrent clients, one statement each. */
async function measurePostgresFloor(floor: PostgresFloor, queries: string[]): Promise<Measurement> {
  const clients = await Promise.all(
    Array.from({ length: connections }, async () => {
      const client = new Client({ connectionString: databaseUrl });
      await client.connect();
      return client;
    }),
  );
  const statement = floorStatement(floor);
  const latencies: number[] = [];
  let next = 0;
  let failures = 0;
  const startedAt = performance.now();
  const endsAt = startedAt + durationSeconds * 1000;
  try {
    await Promise.all(
      clients.map(async (client) => {
        while (performance.now() < endsAt) {
          const query = queries[next++ % queries.length];
          const sent = performance.now();
          try {
            await client.query(statement, [query]);
            latencies.push(performance.now() - sent);
          } catch {
            failures += 1;
          }
        }
      }),
    );
  } finally {
    await Promise.all(clients.map((client) => client.end()));
  }
  const elapsedSeconds = (performance.now() - startedAt) / 1000;
  latencies.sort((left, right) => left - right);
  return {
    name: floor.name,
    requests: latencies.length,
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
    requestsPerSecond: latencies.length / elapsedSeconds,
    failures,
  };
}

/** One client, one request at a time: the latency of a search on an otherwise idle gateway. */
async function measureSequential(gateway: GatewayProcess, apiKey: string, depth: string, queries: string[]): Promise<Measurement> {
  const latencies: number[] = [];
  const startedAt = performance.now();
  for (let index = 0; index < sequentialRequests; index += 1) {
    const sent = performance.now();
    await searchOverHttp(gateway, apiKey, { query: queries[index % queries.length], search_depth: depth, max_results: 10 });
    latencies.push(performance.now() - sent);
  }
  const elapsedSeconds = (performance.now() - startedAt) / 1000;
  latencies.sort((left, right) => left - right);
  return {
    name: `POST /search, search_depth ${depth}, 1 client (sequential)`,
    requests: latencies.length,
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
    requestsPerSecond: latencies.length / elapsedSeconds,
    failures: 0,
  };
}

async function indexedDocuments(): Promise<number> {
  const client = new Client({ connectionString: databaseUrl });
  try {
    await client.connect();
    const { rows } = await client.query<{ documents: number }>('SELECT count(*)::int AS documents FROM documents');
    return rows[0].documents;
  } catch {
    return 0;
  } finally {
    await client.end();
  }
}

async function main(): Promise<void> {
  const workDirectory = mkdtempSync(join(tmpdir(), 'sift-bench-latency-'));
  let gateway: GatewayProcess | undefined;
  try {
    if (reuseIndex && (await indexedDocuments()) === documentCount) {
      console.log(`Reusing the ${documentCount}-document index in ${databaseUrl}`);
    } else {
      await importCorpus(workDirectory);
    }

    const queries = cranfieldQueryTexts();
    gateway = await startGateway(databaseUrl, { RATE_LIMIT_PROD_PER_MINUTE: '1000000' });
    const apiKey = await createBenchKey(databaseUrl);
    // Warm-up: the gateway's first searches load corpus statistics and JIT-compile the hot paths.
    for (const depth of depths) {
      for (const query of queries.slice(0, 20)) await searchOverHttp(gateway, apiKey, { query, search_depth: depth, max_results: 10 });
    }

    const measurements: Measurement[] = [];
    for (const depth of depths) {
      if (warmUpSeconds > 0) await measureSearch(gateway, apiKey, depth, queries, warmUpSeconds);
      measurements.push(await measureSearch(gateway, apiKey, depth, queries));
    }
    for (const depth of depths) measurements.push(await measureSequential(gateway, apiKey, depth, queries));
    // How many queries each depth answers, one request per query after the timed runs.
    const answers: string[] = [];
    for (const depth of depths) {
      const counts: number[] = [];
      for (const query of queries) counts.push((await searchOverHttp(gateway, apiKey, { query, search_depth: depth, max_results: 10 })).length);
      answers.push(describeAnswers(`POST /search, search_depth ${depth}`, answersOf(counts)));
    }
    await gateway.stop();
    gateway = undefined;
    // The floors run with the gateway stopped, so both sides get the machine to themselves.
    const floor = await measurePostgresFloor(EVERY_WORD_FLOOR, queries);
    measurements.push(floor);
    const anyWordFloor = await measurePostgresFloor(ANY_WORD_FLOOR, queries);
    measurements.push(anyWordFloor);
    const client = new Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      for (const each of POSTGRES_FLOORS) {
        const counts: number[] = [];
        for (const query of queries) counts.push((await floorUrls(client, each, query)).length);
        answers.push(describeAnswers(each.name, answersOf(counts)));
      }
    } finally {
      await client.end();
    }

    console.log(
      `${connections} concurrent clients for ${durationSeconds} s per depth after ${warmUpSeconds} s unmeasured at the same load ` +
        `(and ${sequentialRequests} sequential requests per depth from 1 client), ${queries.length} rotating Cranfield queries, max_results 10`,
    );
    console.log('| Path | Requests | p50 | p99 | Requests/s | Failed | p50 / floor | Requests/s / floor | Requests/s / any-word floor |');
    console.log('|---|---|---|---|---|---|---|---|---|');
    for (const measurement of measurements) {
      console.log(
        `| ${measurement.name} | ${measurement.requests} | ${measurement.p50Ms.toFixed(1)} ms | ${measurement.p99Ms.toFixed(1)} ms | ` +
          `${measurement.requestsPerSecond.toFixed(1)} | ${measurement.failures} | ${(measurement.p50Ms / floor.p50Ms).toFixed(2)}× | ` +
          `${(measurement.requestsPerSecond / floor.requestsPerSecond).toFixed(2)}× | ${(measurement.requestsPerSecond / anyWordFloor.requestsPerSecond).toFixed(2)}× |`,
      );
    }
    for (const line of answers) console.log(line);
    const basic = measurements.find((measurement) => measurement.name.endsWith('basic'));
    if (basic) console.log(`Target basic-depth p50 < 50 ms: ${basic.p50Ms < 50 ? 'met' : 'not met'} (${basic.p50Ms.toFixed(1)} ms)`);
  } finally {
    await gateway?.stop();
    rmSync(workDirectory, { recursive: true, force: true });
  }
}

/** Drops the database and imports the synthetic corpus through `admin index import`, then VACUUM ANALYZE. */
async function importCorpus(workDirectory: string): Promise<void> {
  await dropDatabase(databaseUrl);
  const sources = readCranfieldJsonl<SourceDocument>('corpus.jsonl');
  const documents = synthesiseCorpus(sources, documentCount);
  const importFile = join(workDirectory, 'synthetic.jsonl');
  writeFileSync(importFile, documents.map((document) => JSON.stringify(document)).join('\n'));
  const words = documents.reduce((sum, document) => sum + document.text.split(/\s+/).length, 0);
  console.log(`Corpus: ${documents.length} documents, ${Math.round(words / documents.length)} words on average`);
  const imported = await importThroughAdmin(databaseUrl, importFile);
  console.log(`admin index import: imported ${imported.imported}, skipped ${imported.skipped} in ${imported.seconds.toFixed(1)} s`);
  const vacuum = new Client({ connectionString: databaseUrl });
  await vacuum.connect();
  // What autovacuum would do soon after a bulk import; without it the planner works from empty statistics.
  await vacuum.query('VACUUM ANALYZE documents, document_postings, document_chunks');
  await vacuum.end();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
