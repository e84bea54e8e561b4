// What charging a request costs once an account has spent a busy month: an account on the growth plan (100,000
// credits a month) whose ledger already holds LEDGER_ROWS rows this month (default 90,000), then ROUNDS reserve and
// settle pairs (sift_reserve_credits / sift_settle_credits, as BillingService calls them for a 1-credit search),
// timed one after another. Prints the wall and Postgres CPU time per call. Works in a database of its own (dropped
// and created each run). BILLING_BENCH_SETUP_SQL runs after the migrations, to measure a change against the current
// rule (A/B).
// Run: node scripts/run-ts.js bench/search-latency/billing-growth.ts
import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { recreateBenchDatabase } from '../crawl/bench-stack';
import { cpuMs, databaseBackendPids } from './proc-cpu';

const DATABASE_URL = process.env.BILLING_BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/sift_bench_billing';
const LEDGER_ROWS = Number(process.env.LEDGER_ROWS ?? 90_000);
const ROUNDS = Number(process.env.ROUNDS ?? 200);

async function main(): Promise<void> {
  const database = await recreateBenchDatabase(DATABASE_URL, process.env.BILLING_BENCH_SETUP_SQL);
  const client = new Client({ connectionString: DATABASE_URL });
  await client.connect();
  try {
    const accountId = randomUUID();
    await client.query(`INSERT INTO accounts (id, name, plan_id) VALUES ($1, 'billing-growth', 'growth')`, [accountId]);
    // This month's requests so far, one credit each, spread over the month's first hours.
    await client.query(
      `INSERT INTO credit_ledger (account_id, request_id, kind, endpoint, plan_credits, paygo_credits, created_at)
       SELECT $1, 'earlier-' || g, 'search', 'search', 1, 0, date_trunc('month', now(), 'UTC') + g * interval '10 ms'
       FROM generate_series(1, $2::int) AS g`,
      [accountId, LEDGER_ROWS],
    );
    await client.query('VACUUM ANALYZE credit_ledger');
    const since = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), 1));
    const [backend] = databaseBackendPids(database);
    const charge = async (requestId: string) => {
      await client.query(`SELECT * FROM sift_reserve_credits($1, NULL, $2, 1, 1, 60000, $3)`, [accountId, requestId, since]);
      await client.query(
        `SELECT * FROM sift_settle_credits($1, NULL, NULL, $2, 'search', ARRAY['search'], ARRAY[1], ARRAY[NULL]::text[],
                                           ARRAY[NULL]::int[], ARRAY[NULL]::int[], ARRAY[NULL]::int[], $3)`,
        [accountId, requestId, since],
      );
    };
    for (let warmUp = 0; warmUp < 10; warmUp += 1) await charge(randomUUID());
    const cpuBefore = cpuMs(backend);
    const started = process.hrtime.bigint();
    for (let round = 0; round < ROUNDS; round += 1) await charge(randomUUID());
    const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
    const postgresMs = cpuMs(backend) - cpuBefore;
    console.log(`growth-plan account with ${LEDGER_ROWS} ledger rows this month, ${ROUNDS} reserve + settle pairs`);
    console.log(`per call (reserve or settle): wall ${(wallMs / ROUNDS / 2).toFixed(2)} ms, Postgres CPU ${(postgresMs / ROUNDS / 2).toFixed(2)} ms`);
  } finally {
    await client.end();
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
