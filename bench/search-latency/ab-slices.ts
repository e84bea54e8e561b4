// Two gateways compared under the same load: both run at once (each from its own checkout and database), and
// 16-client POST /search load alternates between them in short slices, in a random order per round, so a change
// in what else the machine is doing falls on both sides alike. Per slice it reads the CPU time of the loaded
// gateway and of every Postgres process from /proc; it prints each side's median machine time per search and
// the ratio B / A. Linux only; each database needs the bench index (bench/search-latency/run.ts once per checkout).
//
//   AB_A_ROOT=/path/to/old/checkout AB_A_DATABASE_URL=postgresql://…/sift_ab_base \
//   AB_B_DATABASE_URL=postgresql://…/sift_ab_main [AB_B_ENV='NAME=value …'] [AB_ROUNDS=12] [AB_SLICE_SECONDS=2] \
//   node scripts/run-ts.js bench/search-latency/ab-slices.ts
//
// Roots default to this checkout; AB_A_ENV / AB_B_ENV add environment variables to one side's gateway and
// AB_A_NODE_ARGS / AB_B_NODE_ARGS arguments to its node (e.g. `--cpu-prof --cpu-prof-dir=/tmp/profile-b`).
import { execFileSync } from 'node:child_process';
import autocannon from 'autocannon';
import { cpuMs } from './proc-cpu';
import { createBenchKey, repositoryRoot, searchOverHttp, startGateway, type GatewayProcess } from '../search-quality/search-stack';
import { cranfieldQueryTexts } from './cranfield-queries';

const rounds = Number(process.env.AB_ROUNDS ?? 12);
const sliceSeconds = Number(process.env.AB_SLICE_SECONDS ?? 2);
const depth = process.env.BENCH_DEPTH ?? 'basic';

interface Side {
  name: 'A' | 'B';
  gateway: GatewayProcess;
  apiKey: string;
  slices: { requests: number; gatewayMs: number; postgresMs: number; p50: number }[];
}

function postgresMs(): number {
  let pids: number[] = [];
  try {
    pids = execFileSync('pgrep', ['-f', 'postgres']).toString().trim().split('\n').filter(Boolean).map(Number);
  } catch {
    // no Postgres process visible
  }
  return pids.reduce((sum, pid) => sum + cpuMs(pid), 0);
}

function envOf(value: string | undefined): Record<string, string> {
  const env: Record<string, string> = {};
  for (const pair of (value ?? '').split(/\s+/).filter(Boolean)) {
    const at = pair.indexOf('=');
    env[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return env;
}

function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

async function startSide(name: 'A' | 'B'): Promise<Side> {
  const root = process.env[`AB_${name}_ROOT`] ?? repositoryRoot;
  const databaseUrl = process.env[`AB_${name}_DATABASE_URL`];
  if (!databaseUrl) throw new Error(`set AB_${name}_DATABASE_URL`);
  const nodeArguments = (process.env[`AB_${name}_NODE_ARGS`] ?? '').split(/\s+/).filter(Boolean);
  const gateway = await startGateway(databaseUrl, { RATE_LIMIT_PROD_PER_MINUTE: '1000000', ...envOf(process.env[`AB_${name}_ENV`]) }, root, nodeArguments);
  try {
    return { name, gateway, apiKey: await createBenchKey(databaseUrl, root), slices: [] };
  } catch (error) {
    await gateway.stop();
    throw error;
  }
}

async function main(): Promise<void> {
  const queries = cranfieldQueryTexts();
  const sides: Side[] = [];
  let next = 0;
  const load = (side: Side, seconds: number) =>
    autocannon({
      url: `${side.gateway.baseUrl}/search`, connections: 16, duration: seconds, method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${side.apiKey}` },
      requests: [{ setupRequest: (request) => ({ ...request, body: JSON.stringify({ query: queries[next++ % queries.length], search_depth: depth, max_results: 10 }) }) }],
    });
  try {
    // Inside the try: a side that fails to start stops the one already running.
    sides.push(await startSide('A'));
    sides.push(await startSide('B'));
    for (const side of sides) {
      for (const query of queries.slice(0, 40)) await searchOverHttp(side.gateway, side.apiKey, { query, search_depth: depth, max_results: 10 });
      await load(side, 5);
    }
    for (let round = 0; round < rounds; round += 1) {
      const order = Math.random() < 0.5 ? sides : [...sides].reverse();
      for (const side of order) {
        const before = { gateway: cpuMs(side.gateway.pid), postgres: postgresMs() };
        const result = await load(side, sliceSeconds);
        const requests = result.requests.total;
        side.slices.push({
          requests,
          gatewayMs: (cpuMs(side.gateway.pid) - before.gateway) / requests,
          postgresMs: (postgresMs() - before.postgres) / requests,
          p50: result.latency.p50,
        });
      }
    }
  } finally {
    for (const side of sides) await side.gateway.stop();
  }
  const summary = sides.map((side) => {
    const gateway = median(side.slices.map((slice) => slice.gatewayMs));
    const postgres = median(side.slices.map((slice) => slice.postgresMs));
    const both = median(side.slices.map((slice) => slice.gatewayMs + slice.postgresMs));
    const perSecond = median(side.slices.map((slice) => slice.requests / sliceSeconds));
    const total = side.slices.reduce((sum, slice) => sum + slice.requests, 0);
    console.log(`${side.name}: ${total} measured searches; median per search over ${side.slices.length} slices: gateway ${gateway.toFixed(3)} ms, postgres ${postgres.toFixed(3)} ms, both ${both.toFixed(3)} ms; ${perSecond.toFixed(1)} req/s, p50 ${median(side.slices.map((slice) => slice.p50))} ms`);
    return { gateway, postgres, both, perSecond };
  });
  const [a, b] = summary;
  console.log(`B / A: gateway ${(b.gateway / a.gateway).toFixed(3)}, postgres ${(b.postgres / a.postgres).toFixed(3)}, both ${(b.both / a.both).toFixed(3)}, req/s ${(b.perSecond / a.perSecond).toFixed(3)}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
