// Postgres CPU per ranking statement, without HTTP, the gateway or concurrency: the local index's statements for the
// 225 Cranfield queries at one depth are recorded as `LocalIndexProvider.search` sends them (a warm process: the
// query words' lexemes known), then replayed as prepared statements on one connection, and the CPU its server
// process used is read from /proc. Prints the CPU per search for each round and a digest of the rows, so two
// checkouts can be compared: same digest, same rankings.
// `BENCH_DEPTH` (basic, advanced, ultra-fast; default basic), `BENCH_INCLUDE_DOMAIN` (the filtered path, e.g.
// site0.bench.example), `BENCH_ROUNDS` (default 5); needs the bench index (run bench/search-latency/run.ts once
// first). Linux only.
// Run: BENCH_DATABASE_URL=… node scripts/run-ts.js bench/search-latency/statement-cpu.ts
import { createHash } from 'node:crypto';
import { loadavg } from 'node:os';
import { Pool, type QueryConfig } from 'pg';
import { createPrismaClient } from '@sift/persistence';
import { LocalIndexProvider, type SearchDepth } from '@sift/search-index';
import { cpuMs } from './proc-cpu';
import { cranfieldQueryTexts } from './cranfield-queries';

const databaseUrl = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/sift_bench_latency';
const depth = (process.env.BENCH_DEPTH ?? 'basic') as SearchDepth;
const includeDomain = process.env.BENCH_INCLUDE_DOMAIN;
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);

interface RecordedStatement {
  name: string;
  text: string;
  values: unknown[];
}

/** Records the named (prepared) statements sent through pg pools while `run` runs; the queries still go out. */
async function recordStatements(run: () => Promise<void>): Promise<RecordedStatement[]> {
  const recorded: RecordedStatement[] = [];
  const query = Pool.prototype.query;
  const recording = function (this: Pool, config: unknown, ...rest: unknown[]) {
    const statement = config as QueryConfig;
    if (statement && typeof statement === 'object' && statement.name) recorded.push({ name: statement.name, text: statement.text, values: statement.values ?? [] });
    return (query as (...args: unknown[]) => unknown).call(this, config, ...rest);
  };
  Pool.prototype.query = recording as typeof Pool.prototype.query;
  try {
    await run();
  } finally {
    Pool.prototype.query = query;
  }
  return recorded;
}

async function main(): Promise<void> {
  const queries = cranfieldQueryTexts();
  const prisma = createPrismaClient(databaseUrl);
  const provider = new LocalIndexProvider(prisma);
  // Once unrecorded, so the corpus snapshot and the query words' lexemes are loaded, as in a warm gateway.
  const search = async () => {
    for (const query of queries) await provider.search({ query, depth, maxResults: 10, chunksPerSource: 3, ...(includeDomain ? { includeDomains: [includeDomain] } : {}) });
  };
  await search();
  const ranking = (await recordStatements(search)).filter((statement) => statement.name.startsWith('sift_local_index_') && statement.name !== 'sift_local_index_word_lexemes');
  await prisma.$disconnect();

  const pool = new Pool({ connectionString: databaseUrl, max: 1 });
  const backend = (await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid;
  const digest = createHash('sha256');
  for (const statement of ranking) digest.update(JSON.stringify((await pool.query(statement)).rows.map((row: { id: string; relevance: number; chunks?: unknown }) => [row.id, row.relevance, row.chunks])));
  const names = [...new Set(ranking.map((statement) => statement.name))].join(', ');
  console.log(`${ranking.length} statements (${names}) for ${queries.length} queries, ${depth} depth${includeDomain ? `, include_domains ${includeDomain}` : ''}; rows digest ${digest.digest('hex').slice(0, 16)}`);
  console.log(`load average at start: ${loadavg().map((value) => value.toFixed(2)).join(' ')}`);
  for (let round = 1; round <= rounds; round += 1) {
    const before = cpuMs(backend);
    const startedAt = performance.now();
    for (const statement of ranking) await pool.query(statement);
    const elapsedMs = performance.now() - startedAt;
    console.log(`round ${round}: Postgres CPU ${((cpuMs(backend) - before) / queries.length).toFixed(3)} ms per search, wall ${(elapsedMs / queries.length).toFixed(3)} ms`);
  }
  await pool.end();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
