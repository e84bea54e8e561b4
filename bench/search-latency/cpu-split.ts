// Where a search's machine time goes at 16 clients: CPU time of the gateway process, of every Postgres
// process, and of this process (autocannon), per request, read from /proc during one autocannon run.
// `BENCH_DEPTH` (default basic), `BENCH_DURATION_SECONDS` (default 15), `BENCH_KEYLESS=1` (the searches sent keyless:
// no key, no charge, no request log, so the difference from a keyed run is what those cost); needs the bench index
// (run bench/search-latency/run.ts once first). Linux only.
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { cpuMs, machineMs, pidsMatching } from './proc-cpu';
import { createBenchKey, searchOverHttp, startGateway } from '../search-quality/search-stack';
import { cranfieldQueryTexts } from './cranfield-queries';

const databaseUrl = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/sift_bench_latency';
const depth = process.env.BENCH_DEPTH ?? 'basic';
const durationSeconds = Number(process.env.BENCH_DURATION_SECONDS ?? 15);
const keyless = process.env.BENCH_KEYLESS === '1';

/** Postgres CPU by process kind (client backends, autovacuum, WAL and checkpoint writers, ...) from the titles. */
function postgresByKind(): Map<string, number> {
  const byKind = new Map<string, number>();
  for (const pid of pidsMatching('postgres')) {
    let title = '';
    try {
      title = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
    } catch {
      continue;
    }
    const kind = /postgres: \S+ \S+ \S+/.test(title) && !/autovacuum|writer|checkpointer|launcher|logger|archiver/.test(title) ? 'backends' : (title.replace(/^postgres: (\d+\/main: )?/, '').split(' ').slice(0, 2).join(' ') || 'postmaster');
    byKind.set(kind, (byKind.get(kind) ?? 0) + cpuMs(pid));
  }
  return byKind;
}

async function main(): Promise<void> {
  const queries = cranfieldQueryTexts();
  // Node's own flags for the gateway (e.g. "--cpu-prof --cpu-prof-dir=/tmp/p", which NODE_OPTIONS does not accept).
  const nodeArguments = (process.env.GATEWAY_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const gateway = await startGateway(databaseUrl, { RATE_LIMIT_PROD_PER_MINUTE: '1000000', KEYLESS_REQUESTS_PER_MINUTE: '100000000' }, undefined, nodeArguments);
  try {
    const apiKey = await createBenchKey(databaseUrl);
    for (const query of queries.slice(0, 40)) await searchOverHttp(gateway, apiKey, { query, search_depth: depth, max_results: 10 });
    let next = 0;
    const load = (seconds: number) =>
      autocannon({
        url: `${gateway.baseUrl}/search`, connections: 16, duration: seconds, method: 'POST',
        headers: { 'content-type': 'application/json', ...(keyless ? { 'x-service-access-mode': 'keyless' } : { authorization: `Bearer ${apiKey}` }) },
        requests: [{ setupRequest: (request) => ({ ...request, body: JSON.stringify({ query: queries[next++ % queries.length], search_depth: depth, max_results: 10 }) }) }],
      });
    // As in run.ts: a few seconds of unmeasured load first (JIT tiers, heap growth, the pool's first plans).
    await load(Number(process.env.BENCH_WARMUP_SECONDS ?? 5));
    const gatewayPids = pidsMatching('apps/gateway/src/main.ts');
    const before = { gateway: gatewayPids.reduce((s, p) => s + cpuMs(p), 0), postgres: pidsMatching('postgres').reduce((s, p) => s + cpuMs(p), 0), self: process.cpuUsage(), machine: machineMs() };
    const kindsBefore = postgresByKind();
    const result = await load(durationSeconds);
    const self = process.cpuUsage(before.self);
    const postgresPids = pidsMatching('postgres');
    const after = { gateway: gatewayPids.reduce((s, p) => s + cpuMs(p), 0), postgres: postgresPids.reduce((s, p) => s + cpuMs(p), 0), machine: machineMs() };
    const requests = result.requests.total;
    const per = (ms: number) => (ms / requests).toFixed(2);
    console.log(`${depth}${keyless ? ', keyless' : ''}: ${requests} requests, ${(requests / result.duration).toFixed(1)} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, non-2xx ${result.non2xx}`);
    const kindsAfter = postgresByKind();
    const kinds = [...kindsAfter].map(([kind, ms]) => `${kind} ${((ms - (kindsBefore.get(kind) ?? 0)) / requests).toFixed(2)}`).join(', ');
    console.log(`CPU ms per request: gateway ${per(after.gateway - before.gateway)}, postgres ${per(after.postgres - before.postgres)}, autocannon ${per((self.user + self.system) / 1000)}, whole machine ${per(after.machine - before.machine)}`);
    console.log(`Postgres by process kind, ms per request: ${kinds}`);
  } finally {
    await gateway.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
