import type { FixtureServer } from '@sift/safe-fetch';
import { callGateway, createTestAccount, createTestKey, type GitDocsSite, loopHoldDuring, startGitDocsSite, startLoopbackSearxng, type TestKey } from '@sift/testing';
import Ajv from 'ajv';
import { startTestGateway, TestGateway } from '../testing/gateway-harness';
import { startWorkerProcess, WorkerProcess } from '../testing/worker-process';

interface ResearchBody {
  request_id: string;
  status: 'pending' | 'in_progress' | 'completed' | 'failed';
  content?: string | Record<string, unknown>;
  error?: string;
}

interface ErrorBody {
  detail: { error: string };
}

// Whole research tasks run here: searches and pages read through a real extractor worker process.
jest.setTimeout(180_000);

const POLL_INTERVAL_MS = 700;
/** How long the gateway's or the worker's event loop may be held, or an answer take, on a busy test machine. */
const PROMPT_MS = 2_000;

async function timed<Value>(work: () => Promise<Value>): Promise<{ value: Value; elapsedMs: number }> {
  const startedAt = performance.now();
  const value = await work();
  return { value, elapsedMs: performance.now() - startedAt };
}

/** `count` string properties named p0, p1, … */
function stringProperties(count: number): Record<string, { type: 'string' }> {
  return Object.fromEntries(Array.from({ length: count }, (_, index) => [`p${index}`, { type: 'string' as const }]));
}

/**
 * The costliest schema the limits allow (see output-schema.spec.ts): 100 properties, some 400 subschemas once each
 * $ref is expanded, lists at the minItems cap, an enum at its cap, and near 32 KB.
 */
function costliestAllowedSchema(): Record<string, unknown> {
  const $defs = { word: { type: 'string', pattern: '^(\\w+\\s?)*$', minLength: 1 }, choice: { enum: Array.from({ length: 100 }, (_, value) => `v${value}`) } };
  const properties = Object.fromEntries(
    Array.from({ length: 100 }, (_, index) => [
      `field${index}`,
      {
        description: `Field ${index}: ${'a description of what the report should say here '.repeat(4)}`,
        ...(index % 2 === 0 ? { anyOf: [{ $ref: '#/$defs/word' }, { $ref: '#/$defs/choice' }] } : { type: 'array', minItems: 50, uniqueItems: true, items: { $ref: '#/$defs/word' } }),
      },
    ]),
  );
  return { $defs, properties };
}

/**
 * Asks the research worker's health port for /health over and over until stopped, and tells how long the slowest
 * answer took: a worker whose event loop is held answers late, or not at all (counted as the probe's timeout).
 */
function watchWorkerHealth(healthUrl: string) {
  let watching = true;
  let slowestMs = 0;
  const probes = (async () => {
    while (watching) {
      const startedAt = performance.now();
      try {
        await fetch(`${healthUrl}/health`, { signal: AbortSignal.timeout(10_000) });
      } catch {
        // No answer within the timeout: its whole length is counted.
      }
      slowestMs = Math.max(slowestMs, performance.now() - startedAt);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  })();
  return {
    stop: async () => {
      watching = false;
      await probes;
      return slowestMs;
    },
  };
}

// POST /research with hostile output_schemas: the gateway refuses what is too large at once, without compiling it,
// and stays responsive; a pattern that backtracks catastrophically runs on RE2 in the research worker, which keeps
// answering its health port and running other accounts' tasks.
describe('output_schema limits', () => {
  let gateway: TestGateway;
  let extractor: WorkerProcess;
  let research: WorkerProcess;
  let site: GitDocsSite;
  let searxng: FixtureServer;

  beforeAll(async () => {
    site = await startGitDocsSite();
    searxng = await startLoopbackSearxng(() => [
      { url: `${site.origin}/git-merge.html`, title: 'git-merge(1)', content: 'Join two or more development histories together' },
      { url: `${site.origin}/git-rebase.html`, title: 'git-rebase(1)', content: 'Reapply commits on top of another base tip' },
    ]);
    extractor = await startWorkerProcess('extractor-worker');
    research = await startWorkerProcess('research-worker', { QUEUE_PREFIX: extractor.queuePrefix, SEARXNG_URL: searxng.url });
    gateway = await startTestGateway({ QUEUE_PREFIX: extractor.queuePrefix, FETCH_ALLOW_CIDRS: '127.0.0.1/32' });
  }, 120_000);

  afterAll(async () => {
    await Promise.all([gateway?.close(), extractor?.stop(), research?.stop(), site?.close(), searxng?.close()]);
  });

  async function newKey(): Promise<TestKey & { accountId: string }> {
    const account = await createTestAccount(gateway.prisma, { plan: 'growth', name: 'output-schema' });
    return { ...(await createTestKey(gateway.prisma, account.id)), accountId: account.id };
  }

  function start(apiKey: string, outputSchema: unknown, input = 'What does git merge do?') {
    return callGateway<ResearchBody>(gateway.baseUrl, 'POST', '/research', { apiKey, body: { input, model: 'mini', output_schema: outputSchema } });
  }

  async function finished(apiKey: string, requestId: string): Promise<ResearchBody> {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const answer = await callGateway<ResearchBody>(gateway.baseUrl, 'GET', `/research/${requestId}`, { apiKey });
      if (answer.status === 200) return answer.body;
      if (Date.now() > deadline) throw new Error(`task ${requestId} did not finish within 60 s (still ${answer.body.status})`);
      await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
    }
  }

  function errorOf(answer: { body: unknown }): string {
    return (answer.body as ErrorBody).detail.error;
  }

  it('refuses five 830 KB schemas (a 60,000-value enum) at once without compiling them, while /health answers promptly', async () => {
    const key = await newKey();
    const huge = { properties: { answer: { type: 'string', enum: Array.from({ length: 60_000 }, (_, index) => `value-${index}`) } } };
    // Serialized once, before the measurement: the test's own JSON.stringify runs on the same event loop as the gateway.
    const body = JSON.stringify({ input: 'What does git merge do?', model: 'mini', output_schema: huge });
    expect(body.length).toBeGreaterThan(800_000);
    const { value, longestStallMs } = await loopHoldDuring(async () => {
      const refusals = Promise.all(Array.from({ length: 5 }, () => timed(() => callGateway<ResearchBody>(gateway.baseUrl, 'POST', '/research', { apiKey: key.apiKey, body }))));
      // The costliest schema the limits allow is compiled here, among them.
      const accepted = timed(() => start(key.apiKey, costliestAllowedSchema()));
      const health = timed(() => callGateway(gateway.baseUrl, 'GET', '/health'));
      return { refusals: await refusals, accepted: await accepted, health: await health };
    });
    for (const refusal of value.refusals) {
      expect(refusal.value.status).toBe(400);
      // Refused by the body's own limit, before class-transformer walks its 60,000 values or anything compiles it
      // (compiling one takes minutes); the bound only has to hold on a loaded machine.
      expect(refusal.value.body).toEqual({ detail: { error: 'Invalid request: JSON holding more than 50000 values (array items and object fields)' } });
      expect(refusal.elapsedMs).toBeLessThan(10_000);
    }
    expect(value.accepted.value.status).toBe(200);
    expect(value.health.value.status).toBe(200);
    expect(value.health.elapsedMs).toBeLessThan(PROMPT_MS);
    // Ajv took 11 s per such schema on the gateway's event loop; now the loop turns while all six are answered.
    expect(longestStallMs).toBeLessThan(PROMPT_MS);
    expect(await gateway.prisma.researchTask.count({ where: { accountId: key.accountId } })).toBe(1);
  });

  it('counts properties anywhere: 10,000 under $defs, anyOf or allOf, or 101 there, are refused with a short reason', async () => {
    const key = await newKey();
    const many = stringProperties(10_000);
    const some = stringProperties(101);
    const field = { summary: { type: 'string' } };
    for (const [schema, reason] of [
      [{ properties: field, $defs: { many: { type: 'object', properties: many } } }, 'output_schema may be at most 32768 characters of JSON.'],
      [{ properties: field, anyOf: [{ properties: many }] }, 'output_schema may be at most 32768 characters of JSON.'],
      [{ properties: field, allOf: [{ properties: many }] }, 'output_schema may be at most 32768 characters of JSON.'],
      [{ properties: field, $defs: { some: { type: 'object', properties: some } } }, /^output_schema may declare at most 100 properties/],
      [{ properties: field, anyOf: [{ properties: some }] }, /^output_schema may declare at most 100 properties/],
      [{ properties: field, allOf: [{ properties: some }] }, /^output_schema may declare at most 100 properties/],
    ] as const) {
      const answer = await start(key.apiKey, schema);
      expect({ status: answer.status, error: errorOf(answer) }).toEqual({ status: 400, error: typeof reason === 'string' ? reason : expect.stringMatching(reason) });
      expect(errorOf(answer).length).toBeLessThan(300);
    }
    expect(await gateway.prisma.researchTask.count({ where: { accountId: key.accountId } })).toBe(0);
  });

  it('refuses a list a report cannot hold (minItems 3,000,000), a remote $ref and nesting 40 deep, each a 400', async () => {
    const key = await newKey();
    // Deeper than output_schema may nest, within what the gateway parses at all (64 levels).
    let deep: unknown = 'leaf';
    for (let level = 0; level < 40; level += 1) deep = [deep];
    for (const [body, reason] of [
      [{ properties: { items: { type: 'array', items: { type: 'string' }, minItems: 3_000_000 } } }, 'output_schema minItems may be at most 50 ("/properties/items/minItems" is 3000000).'],
      [{ properties: { items: { $ref: 'http://127.0.0.1:9/schema.json' } } }, 'output_schema $ref may only point inside the schema ("#/..."): "http://127.0.0.1:9/schema.json" at "/properties/items/$ref".'],
      [{ properties: { items: { type: 'string', default: deep } } }, 'output_schema may nest objects and arrays at most 32 deep.'],
    ] as const) {
      const answer = await start(key.apiKey, body);
      expect({ status: answer.status, body: answer.body }).toEqual({ status: 400, body: { detail: { error: reason } } });
    }
    expect(await gateway.prisma.researchTask.count({ where: { accountId: key.accountId } })).toBe(0);
  });

  it('runs a catastrophic-backtracking pattern on RE2: the task fails at once, the worker keeps answering and runs another account\'s task', async () => {
    const attacker = await newKey();
    const other = await newKey();
    // On a backtracking engine this pattern takes exponential time on a sentence with punctuation: the worker froze.
    const hostile = { properties: { summary: { type: 'string', pattern: '^(\\w+\\s?)*$', description: 'what git merge does' } }, required: ['summary'] };
    const legitimate = {
      properties: {
        summary: { type: 'string', pattern: '\\S', description: 'what git rebase does' },
        kind: { enum: ['command', 'concept', 'file', 'option', 'other'] },
        related: { type: 'array', items: { type: 'string' }, maxItems: 3 },
      },
      required: ['summary', 'kind'],
    };
    const health = watchWorkerHealth(research.healthUrl);
    const mine = await start(attacker.apiKey, hostile);
    const theirs = await start(other.apiKey, legitimate, 'What does git rebase do?');
    expect([mine.status, theirs.status]).toEqual([200, 200]);
    let outcomes: [ResearchBody, ResearchBody];
    try {
      outcomes = await Promise.all([finished(attacker.apiKey, mine.body.request_id), finished(other.apiKey, theirs.body.request_id)]);
    } finally {
      const slowestHealthMs = await health.stop();
      expect(slowestHealthMs).toBeLessThan(PROMPT_MS);
    }
    const [hostileOutcome, legitimateOutcome] = outcomes;
    expect(hostileOutcome).toMatchObject({ status: 'failed', error: expect.stringMatching(/could not fill output_schema: \/summary must match pattern "\^\(\\w\+\\s\?\)\*\$"/) });
    expect(legitimateOutcome.status).toBe('completed');
    const validate = new Ajv().compile({ type: 'object', ...legitimate });
    expect({ valid: validate(legitimateOutcome.content), errors: validate.errors ?? null }).toEqual({ valid: true, errors: null });
  });

  it('fails a report that fills none of many fields with a short error: five names, then how many more', async () => {
    const key = await newKey();
    // Names no page uses: the extractive writer fills none of them.
    const counts = Object.fromEntries(Array.from({ length: 60 }, (_, index) => [`xyzzy${index}`, { type: 'integer' }]));
    const started = await start(key.apiKey, { properties: counts, required: Object.keys(counts) });
    expect(started.status).toBe(200);
    const outcome = await finished(key.apiKey, started.body.request_id);
    expect(outcome).toMatchObject({ status: 'failed', error: 'Research failed: The sources found support none of output_schema\'s fields: "xyzzy0", "xyzzy1", "xyzzy2", "xyzzy3", "xyzzy4" and 55 more.' });
    expect(outcome.error?.length).toBeLessThan(600);
  });
});
