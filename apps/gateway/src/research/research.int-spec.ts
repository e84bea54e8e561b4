import { randomUUID } from 'node:crypto';
import { TOKEN_BUDGET_CUT_MARKER } from '@sift/api-contracts';
import type { ResearchEvent } from '@sift/queue-contracts';
import { inlineCitation, isGroundedIn, sourceListEntry } from '@sift/research';
import type { FixtureServer } from '@sift/safe-fetch';
import { callGateway, createTestAccount, createTestKey, eventually, GitDocsSite, type LoopbackChatServer, startGitDocsSite, startLoopbackChatServer, startLoopbackSearxng, type TestKey } from '@sift/testing';
import Ajv from 'ajv';
import { Redis } from 'ioredis';
import { countTokens } from '../http/token-budget';
import { startTestGateway, TestGateway } from '../testing/gateway-harness';
import { startWorkerProcess, WorkerProcess } from '../testing/worker-process';

interface ResearchBody {
  request_id: string;
  created_at?: string;
  completed_at?: string;
  status: 'pending' | 'in_progress' | 'completed' | 'failed';
  input?: string;
  model?: string;
  content?: string | Record<string, unknown>;
  sources?: Array<{ title: string; url: string; favicon?: string | null }>;
  error?: string;
  report_mode?: string;
  unfilled_fields?: string[];
  partial?: boolean;
  partial_reason?: string;
  token_budget?: { max_tokens: number; returned_tokens: number; cut: boolean };
  response_time: number;
  usage?: { credits: number };
}

interface ErrorBody {
  detail: { error: string };
}

interface StreamFrame {
  event?: string;
  data: string;
}

// Whole research tasks run here: searches, pages read through the extractor, a crash and a restart.
jest.setTimeout(180_000);

/** Server-sent events as a client reads them: blocks separated by a blank line, `event:` and `data:` lines. */
function framesOf(text: string): StreamFrame[] {
  return text
    .split('\n\n')
    .filter((block) => block.trim() && !block.startsWith(':'))
    .map((block) => {
      const lines = block.split('\n');
      const event = lines.find((line) => line.startsWith('event: '))?.slice('event: '.length);
      const data = lines.find((line) => line.startsWith('data:'))?.slice('data:'.length).trim() ?? '';
      return event ? { event, data } : { data };
    });
}

/**
 * How often a test polls GET /research/{id}: within a development key's 100 requests a minute, so a task that takes
 * longer (a killed worker's, resumed after its lock expires) is not answered 429 before it finishes.
 */
const POLL_INTERVAL_MS = 700;

// POST /research and GET /research/{id} over HTTP: the gateway stores and queues the task, a real research worker
// process runs it (searching the local index and a loopback SearXNG, reading the Git documentation site through a
// real extractor worker process), and the task's row, stream, ledger and request log are what a client sees.
describe('research', () => {
  let gateway: TestGateway;
  let extractor: WorkerProcess;
  let research: WorkerProcess;
  let site: GitDocsSite;
  let slowSite: GitDocsSite;
  let searxng: FixtureServer;
  let researchEnv: Record<string, string>;
  const slowMarker = `slowtopic${randomUUID().slice(0, 6)}`;

  beforeAll(async () => {
    site = await startGitDocsSite();
    // Pages that take seconds to answer: a task reading them is still running when its worker is killed.
    slowSite = await startGitDocsSite({ responseDelayMs: 4_000 });
    const port = new URL(site.origin).port;
    searxng = await startLoopbackSearxng((query) => {
      const origin = query.includes(slowMarker) ? slowSite.origin : site.origin;
      return [
        { url: `${origin}/git-merge.html`, title: 'git-merge(1)', content: 'Join two or more development histories together' },
        { url: `${origin}/git-rebase.html`, title: 'git-rebase(1)', content: 'Reapply commits on top of another base tip' },
        // The same site under another name: exclude_domains ["localhost"] must keep it out.
        { url: `http://localhost:${port}/git-branch.html`, title: 'git-branch(1)', content: 'List, create, or delete branches' },
      ];
    });
    extractor = await startWorkerProcess('extractor-worker');
    researchEnv = {
      QUEUE_PREFIX: extractor.queuePrefix,
      SEARXNG_URL: searxng.url,
      RESEARCH_SWEEP_INTERVAL_MS: '500',
      // A killed worker's task is taken back within seconds, not the default 15.
      QUEUE_LOCK_DURATION_MS: '2000',
      QUEUE_STALLED_INTERVAL_MS: '1000',
    };
    research = await startWorkerProcess('research-worker', researchEnv);
    gateway = await startTestGateway({ QUEUE_PREFIX: extractor.queuePrefix, FETCH_ALLOW_CIDRS: '127.0.0.1/32' });
  }, 120_000);

  afterAll(async () => {
    await Promise.all([gateway?.close(), extractor?.stop(), research?.stop(), site?.close(), slowSite?.close(), searxng?.close()]);
  });

  async function newKey(): Promise<TestKey & { accountId: string }> {
    const account = await createTestAccount(gateway.prisma, { plan: 'growth', name: 'research' });
    return { ...(await createTestKey(gateway.prisma, account.id)), accountId: account.id };
  }

  function start(apiKey: string, body: Record<string, unknown>) {
    return callGateway<ResearchBody>(gateway.baseUrl, 'POST', '/research', { apiKey, body });
  }

  function poll(apiKey: string, requestId: string, query = '') {
    return callGateway<ResearchBody>(gateway.baseUrl, 'GET', `/research/${requestId}${query}`, { apiKey });
  }

  async function finished(apiKey: string, requestId: string, query = ''): Promise<ResearchBody> {
    return eventually(
      `task ${requestId} finishing`,
      async () => {
        const answer = await poll(apiKey, requestId, query);
        if (answer.status === 200) return answer.body;
        expect(answer.status).toBe(202);
        expect(['pending', 'in_progress']).toContain(answer.body.status);
        return undefined;
      },
      60_000,
      POLL_INTERVAL_MS,
    );
  }

  async function logsOf(apiKey: string) {
    const answer = await callGateway<{ logs: Array<{ endpoint: string; request_id: string; credits: number }> }>(gateway.baseUrl, 'POST', '/logs', {
      apiKey,
      body: { endpoints: ['research'] },
    });
    return answer.body.logs.map(({ endpoint, request_id, credits }) => ({ endpoint, request_id, credits }));
  }

  /** A completed task's report split at its citations: each cited sentence with the (1-based) source it cites. */
  function citedSentences(report: string, sources: NonNullable<ResearchBody['sources']>, citationOf: (position: number) => string) {
    const body = report.slice(0, report.indexOf('\n## Sources'));
    const cited: { sentence: string; source: number }[] = [];
    for (const paragraph of body.split('\n\n').filter((block) => block.trim() !== '' && !block.startsWith('#'))) {
      let rest = paragraph;
      while (rest.trim() !== '') {
        const next = sources
          .map((_source, index) => ({ source: index + 1, citation: citationOf(index + 1), at: rest.indexOf(citationOf(index + 1)) }))
          .filter((found) => found.at >= 0)
          .sort((left, right) => left.at - right.at)[0];
        if (!next) throw new Error(`text cites no listed source: ${rest}`);
        cited.push({ sentence: rest.slice(0, next.at).trim(), source: next.source });
        rest = rest.slice(next.at + next.citation.length);
      }
    }
    return cited;
  }

  /** A page's main content as the extraction pipeline gives it (what the research worker read). */
  async function pageText(apiKey: string, url: string): Promise<string> {
    const answer = await callGateway<{ results: Array<{ raw_content: string }> }>(gateway.baseUrl, 'POST', '/extract', { apiKey, body: { urls: [url], format: 'markdown' } });
    expect(answer.status).toBe(200);
    return answer.body.results[0].raw_content;
  }

  /** What the worker published to the task's stream (as every streaming client reads it). */
  async function publishedEvents(requestId: string): Promise<ResearchEvent[]> {
    const redis = new Redis(process.env.REDIS_URL ?? '');
    try {
      const entries = await redis.xrange(`${extractor.queuePrefix}:research:${requestId}:events`, '-', '+');
      return entries.map(([, fields]) => JSON.parse(fields[1]) as ResearchEvent);
    } finally {
      redis.disconnect();
    }
  }

  async function ledgerOf(requestId: string) {
    const rows = await gateway.prisma.creditLedger.findMany({ where: { requestId } });
    const held = await gateway.prisma.creditReservation.count({ where: { requestId } });
    return { rows: rows.length, kinds: rows.map((row) => row.kind).sort(), credits: rows.reduce((sum, row) => sum + row.planCredits + row.paygoCredits, 0), held };
  }

  it('answers 200 pending at once, 202 while running, then 200 with the cited report; charged once, in /usage and /logs', async () => {
    const key = await newKey();
    const started = await start(key.apiKey, { input: 'How do I join two development histories with git merge?', model: 'mini', unknown_field: 'ignored' });
    expect(started.status).toBe(200);
    expect(started.body).toEqual({
      request_id: expect.any(String),
      created_at: expect.any(String),
      status: 'pending',
      input: 'How do I join two development histories with git merge?',
      model: 'mini',
      response_time: expect.any(Number),
    });
    const first = await poll(key.apiKey, started.body.request_id);
    expect(first.status).toBe(202);
    expect(Object.keys(first.body).sort()).toEqual(['request_id', 'response_time', 'status']);

    const done = await finished(key.apiKey, started.body.request_id, '?include_usage=true');
    expect(done).toMatchObject({ request_id: started.body.request_id, status: 'completed', created_at: started.body.created_at, completed_at: expect.any(String), report_mode: 'extractive' });
    expect(['mini', 'pro']).toContain(done.model);
    expect(typeof done.content).toBe('string');
    expect(done.sources?.length).toBeGreaterThan(0);
    for (const source of done.sources ?? []) expect(source).toEqual({ title: expect.any(String), url: expect.any(String), favicon: expect.anything() });
    // Searches at the search rate and pages read at 1 credit per 5, once, in one settlement per kind.
    const ledger = await ledgerOf(started.body.request_id);
    expect(ledger.kinds).toEqual(['research:extract_basic', 'research:search']);
    expect(ledger.held).toBe(0);
    expect(done.usage).toEqual({ credits: ledger.credits });
    expect(ledger.credits).toBeGreaterThan(0);
    const usage = await callGateway<{ key: { research_usage: number } }>(gateway.baseUrl, 'GET', '/usage', { apiKey: key.apiKey });
    expect(usage.body.key.research_usage).toBe(ledger.credits);
    // The request log shows the charge the worker settled, and which writer produced the report.
    expect(await logsOf(key.apiKey)).toEqual([{ endpoint: 'research', request_id: started.body.request_id, credits: ledger.credits }]);
    const logged = await gateway.prisma.requestLog.findUnique({ where: { requestId: started.body.request_id } });
    expect(logged?.detail).toMatchObject({ mode: 'extractive', searches: expect.any(Number), pages_read: expect.any(Number) });
    // The worker says which writer produced the report.
    await eventually('the worker reporting the mode', async () =>
      new RegExp(`"message":"research task completed","requestId":"${started.body.request_id}","mode":"(extractive|llm)"`).test(research.output()) ? true : undefined,
    );
  });

  it('streams chat.completion.chunk frames (tool calls, tool responses, content, sources) and ends with event: done', async () => {
    const key = await newKey();
    const response = await fetch(`${gateway.baseUrl}/research`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ input: 'What does git rebase do to commits?', model: 'mini', stream: true }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const frames = framesOf(await response.text());
    expect(frames.at(-1)?.event).toBe('done');
    const chunks = frames.filter((frame) => !frame.event).map((frame) => JSON.parse(frame.data));
    const requestId = chunks[0].id;
    for (const chunk of chunks) {
      expect(chunk).toEqual({ id: requestId, object: 'chat.completion.chunk', model: expect.stringMatching(/^(mini|pro|auto)$/), created: expect.any(Number), choices: [{ delta: expect.any(Object) }] });
    }
    const deltas = chunks.map((chunk) => chunk.choices[0].delta);
    const toolCalls = deltas.filter((delta) => delta.tool_calls?.type === 'tool_call').flatMap((delta) => delta.tool_calls.tool_call);
    expect(toolCalls.map((call) => call.name)).toEqual(expect.arrayContaining(['WebSearch']));
    for (const call of toolCalls) expect(call).toMatchObject({ name: expect.any(String), id: expect.any(String), arguments: expect.any(String) });
    const responses = deltas.filter((delta) => delta.tool_calls?.type === 'tool_response').flatMap((delta) => delta.tool_calls.tool_response);
    expect(responses.length).toBeGreaterThan(0);
    for (const toolResponse of responses) expect(toolResponse).toMatchObject({ name: expect.any(String), id: expect.any(String), arguments: expect.any(String), sources: expect.any(Array) });
    expect(deltas.some((delta) => typeof delta.content === 'string' && delta.content.length > 0)).toBe(true);
    expect(deltas.filter((delta) => delta.sources).length).toBeGreaterThan(0);
    // The streamed task is stored like any other.
    const stored = await poll(key.apiKey, requestId);
    expect(stored.status).toBe(200);
    expect(stored.body.status).toBe('completed');
  });

  it('max_tokens: the report is cut to fit in the stream and on GET, counted in token_budget; the stored report stays whole', async () => {
    const key = await newKey();
    const response = await fetch(`${gateway.baseUrl}/research`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ input: 'What does git rebase do to commits?', model: 'mini', stream: true, max_tokens: 50 }),
    });
    expect(response.status).toBe(200);
    const frames = framesOf(await response.text());
    expect(frames.at(-1)?.event).toBe('done');
    const chunks = frames.filter((frame) => !frame.event).map((frame) => JSON.parse(frame.data));
    const requestId: string = chunks[0].id;
    const streamed = chunks.flatMap((chunk) => (typeof chunk.choices[0].delta.content === 'string' ? [chunk.choices[0].delta.content as string] : [])).join('');

    const done = await finished(key.apiKey, requestId);
    const whole = String((await gateway.prisma.researchTask.findUniqueOrThrow({ where: { requestId } })).content);
    // The extractive report of a Git manual page runs to more than twice the budget: it must be cut.
    expect(countTokens(whole)).toBeGreaterThan(100);
    for (const cut of [streamed, done.content as string]) {
      expect(cut.endsWith(TOKEN_BUDGET_CUT_MARKER)).toBe(true);
      expect(countTokens(cut)).toBeLessThanOrEqual(50);
      expect(whole.startsWith(cut.slice(0, -TOKEN_BUDGET_CUT_MARKER.length))).toBe(true);
    }
    expect(done.token_budget).toEqual({ max_tokens: 50, returned_tokens: countTokens(done.content as string), cut: true });
    // Sources are not text the budget counts: all of them are listed.
    expect(done.sources?.length).toBeGreaterThan(0);

    // Without max_tokens nothing is cut and no token_budget appears (what a Tavily client always saw).
    const plain = await start(key.apiKey, { input: 'What does git rebase do to commits?', model: 'mini' });
    const uncut = await finished(key.apiKey, plain.body.request_id);
    expect(uncut).not.toHaveProperty('token_budget');
    expect(uncut.content).not.toContain(TOKEN_BUDGET_CUT_MARKER.trim());
  });

  it('refuses a max_tokens out of bounds with 400, starting nothing', async () => {
    const key = await newKey();
    for (const max_tokens of [10, 2_000_000, 'many', 60.5]) {
      const refused = await start(key.apiKey, { input: 'What is git?', model: 'mini', max_tokens });
      expect(refused.status).toBe(400);
      expect((refused.body as unknown as ErrorBody).detail.error).toMatch(/max_tokens/);
    }
    expect(await gateway.prisma.researchTask.count({ where: { accountId: key.accountId } })).toBe(0);
  });

  it('never reads nor cites an excluded domain', async () => {
    const key = await newKey();
    const localhostHitsBefore = site.hits.get('/git-branch.html') ?? 0;
    const started = await start(key.apiKey, { input: 'Which git commands list branches and merge them?', model: 'mini', exclude_domains: ['localhost'] });
    const done = await finished(key.apiKey, started.body.request_id);
    expect(done.status).toBe('completed');
    expect(done.sources?.length).toBeGreaterThan(0);
    expect(done.sources?.every((source) => new URL(source.url).hostname !== 'localhost')).toBe(true);
    expect(JSON.stringify(done.content)).not.toContain('localhost');
    expect(site.hits.get('/git-branch.html') ?? 0).toBe(localhostHitsBefore);
  });

  it('extractive: every citation names a listed source, and every cited sentence is found in the page it cites', async () => {
    const key = await newKey();
    const started = await start(key.apiKey, { input: 'How do git merge and git rebase combine the work of two branches?', model: 'mini' });
    const done = await finished(key.apiKey, started.body.request_id);
    expect(done.status).toBe('completed');
    const report = done.content as string;
    const sources = done.sources ?? [];
    const numbers = [...report.matchAll(/\[(\d+)\]/g)].map((match) => Number(match[1]));
    expect(numbers.length).toBeGreaterThan(sources.length);
    for (const number of numbers) expect(number >= 1 && number <= sources.length).toBe(true);
    const cited = citedSentences(report, sources, (number) => `[${number}]`);
    expect(cited.length).toBeGreaterThanOrEqual(2);
    const texts = new Map<string, string>();
    for (const source of sources) texts.set(source.url, await pageText(key.apiKey, source.url));
    for (const { sentence, source } of cited) {
      expect({ sentence, grounded: isGroundedIn(sentence, texts.get(sources[source - 1].url) ?? '') }).toEqual({ sentence, grounded: true });
    }
  });

  it('apa: cites in the chosen style and lists its sources in it', async () => {
    const key = await newKey();
    const started = await start(key.apiKey, { input: 'What does git rebase do to commits?', model: 'mini', citation_format: 'apa' });
    const done = await finished(key.apiKey, started.body.request_id);
    expect(done.status).toBe('completed');
    const report = done.content as string;
    const sources = done.sources ?? [];
    expect(sources.length).toBeGreaterThan(0);
    sources.forEach((source, index) => {
      expect(report).toContain(inlineCitation('apa', index + 1, source));
      expect(report).toContain(sourceListEntry('apa', index + 1, source));
    });
    expect(report).not.toMatch(/\[\d+\]/);
    expect(citedSentences(report, sources, (number) => inlineCitation('apa', number, sources[number - 1])).length).toBeGreaterThan(0);
  });

  it('include_domains: pages of an included domain come first among the sources, the others still follow', async () => {
    const key = await newKey();
    const input = 'Which git commands list branches and merge them?';
    const started = await start(key.apiKey, { input, model: 'mini', include_domains: ['localhost'] });
    const done = await finished(key.apiKey, started.body.request_id);
    expect(done.status).toBe('completed');
    const hosts = (done.sources ?? []).map((source) => new URL(source.url).hostname);
    expect(hosts[0]).toBe('localhost');
    expect(hosts.some((host) => host !== 'localhost')).toBe(true);
  });

  describe('output_schema (extractive)', () => {
    it('answers an object that validates against the schema', async () => {
      const key = await newKey();
      const schema = {
        properties: {
          summary: { type: 'string', description: 'what git merge does' },
          commands: { type: 'array', items: { type: 'string' }, description: 'git commands that combine branches' },
        },
        required: ['summary'],
      };
      const started = await start(key.apiKey, { input: 'What does git merge do?', model: 'mini', output_schema: schema });
      const done = await finished(key.apiKey, started.body.request_id);
      expect(done.status).toBe('completed');
      expect(typeof done.content).toBe('object');
      // The schema as a client sends it (no top-level type); the content must also be an object.
      const validate = new Ajv().compile({ type: 'object', ...schema });
      expect({ valid: validate(done.content), errors: validate.errors ?? null }).toEqual({ valid: true, errors: null });
      expect(String((done.content as { summary: string }).summary).length).toBeGreaterThan(0);
      expect((await gateway.prisma.researchTask.findUnique({ where: { requestId: started.body.request_id } }))?.mode).toBe('extractive');
    });

    it('lists a field the sources do not support as unfilled, rather than failing or filling it with any sentence', async () => {
      const key = await newKey();
      const schema = {
        properties: { summary: { type: 'string', description: 'what git merge does' }, price: { type: 'number', description: 'the price of a git merge in euros' } },
        required: ['summary', 'price'],
      };
      const started = await start(key.apiKey, { input: 'What does git merge do, and how much does it cost in euros?', model: 'mini', output_schema: schema });
      const done = await finished(key.apiKey, started.body.request_id, '?include_usage=true');
      expect(done).toMatchObject({ status: 'completed', report_mode: 'extractive', unfilled_fields: ['price'] });
      expect(Object.keys(done.content as object)).toEqual(['summary']);
      expect(done).not.toHaveProperty('partial');
      // Charged as any completed task, for the searches it made.
      expect(done.usage?.credits).toBeGreaterThan(0);
    });

    it('fails with a clear error, and costs nothing, when the sources support none of its fields', async () => {
      const key = await newKey();
      const schema = { properties: { price: { type: 'number', description: 'the price of a git merge in euros' } }, required: ['price'] };
      const started = await start(key.apiKey, { input: 'How much does a git merge cost in euros?', model: 'mini', output_schema: schema });
      const done = await finished(key.apiKey, started.body.request_id, '?include_usage=true');
      expect(done).toEqual({
        request_id: started.body.request_id,
        status: 'failed',
        error: 'Research failed: The sources found support none of output_schema\'s fields: "price".',
        response_time: expect.any(Number),
        usage: { credits: 0 },
      });
      expect(await ledgerOf(started.body.request_id)).toEqual({ rows: 0, kinds: [], credits: 0, held: 0 });
    });
  });

  it('answers 401 without a key, 400 for an unknown model or an invalid output_schema, 404 for unknown and foreign tasks', async () => {
    const key = await newKey();
    const keyless = await callGateway<ErrorBody>(gateway.baseUrl, 'POST', '/research', { body: { input: 'q' } });
    expect(keyless.status).toBe(401);
    const model = await start(key.apiKey, { input: 'q', model: 'max' });
    expect(model.status).toBe(400);
    expect(model.body).toEqual({ detail: { error: 'Invalid model. Must be one of: mini, pro, auto' } });
    const schema = await start(key.apiKey, { input: 'q', output_schema: { required: ['summary'] } });
    expect(schema.status).toBe(400);
    expect((schema.body as unknown as ErrorBody).detail.error).toMatch(/output_schema must have "properties"/);
    const missingInput = await start(key.apiKey, { model: 'mini' });
    expect(missingInput.status).toBe(400);

    for (const id of [randomUUID(), 'not-a-task-id']) {
      const unknown = await poll(key.apiKey, id);
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ detail: { error: 'Research task not found' } });
    }
    const stranger = await newKey();
    const theirs = await start(stranger.apiKey, { input: 'What is git merge?', model: 'mini' });
    const foreign = await poll(key.apiKey, theirs.body.request_id);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ detail: { error: 'Research task not found' } });
    // None of the refused requests left a task or held credits.
    expect(await gateway.prisma.researchTask.count({ where: { accountId: key.accountId } })).toBe(0);
  });

  it('resumes a task whose worker was killed mid-task, and charges it once', async () => {
    const key = await newKey();
    const started = await start(key.apiKey, { input: `How do merges work? ${slowMarker}`, model: 'mini' });
    // Killed once the task has saved progress and is reading the slow pages.
    await eventually('a checkpoint', async () => {
      const row = await gateway.prisma.researchTask.findUnique({ where: { requestId: started.body.request_id } });
      return row?.status === 'in_progress' && row.checkpoint !== null ? row : undefined;
    });
    await research.kill();
    research = await startWorkerProcess('research-worker', researchEnv);
    const done = await finished(key.apiKey, started.body.request_id, '?include_usage=true');
    expect(done.status).toBe('completed');
    await eventually('the restarted worker reporting the resumed task', async () =>
      new RegExp(`"requestId":"${started.body.request_id}".*"resumed":true`).test(research.output()) ? true : undefined,
    );
    const ledger = await ledgerOf(started.body.request_id);
    expect(ledger.kinds).toEqual(['research:extract_basic', 'research:search']);
    expect(done.usage).toEqual({ credits: ledger.credits });
    const usage = await callGateway<{ key: { research_usage: number } }>(gateway.baseUrl, 'GET', '/usage', { apiKey: key.apiKey });
    expect(usage.body.key.research_usage).toBe(ledger.credits);
    // The task's stream shows each step once although the restarted worker replayed the ones not yet saved.
    const events = await publishedEvents(started.body.request_id);
    const steps = events.filter((event) => event.type === 'tool_call' || event.type === 'tool_response').map((event) => `${event.type}:${event.id}`);
    expect(steps.length).toBeGreaterThan(2);
    expect(new Set(steps).size).toBe(steps.length);
    expect(events.filter((event) => event.type === 'content').map((event) => event.content).join('')).toBe(done.content);
    expect(events.filter((event) => event.type === 'done')).toHaveLength(1);
  });

  describe('with a model (LLM_BASE_URL on a loopback chat-completions server)', () => {
    let model: LoopbackChatServer;
    /** A model that writes its report forever: the task runs out of time while it writes. */
    let endless = false;

    beforeAll(async () => {
      // The plan (a JSON reply), then the report streamed in pieces: excerpts 1 and 2 cited, and a number of no excerpt.
      model = await startLoopbackChatServer((request) =>
        request.stream && endless
          ? { endless: 'and it goes on ', intervalMs: 20 }
          : request.stream
          ? { pieces: ['# Merging\n\nA merge joins two development histories [', '1]. A rebase reapplies commits on another base [2]', '. Nothing else [7].'] }
          : { text: '{"sections": [{"title": "Merging", "queries": ["git merge"]}, {"title": "Rebasing", "queries": ["git rebase"]}]}' },
      );
      await research.stop();
      research = await startWorkerProcess('research-worker', { ...researchEnv, LLM_BASE_URL: model.baseUrl, LLM_MODEL: 'test-model' });
    });

    afterAll(async () => {
      await research.stop();
      research = await startWorkerProcess('research-worker', researchEnv);
      await model.close();
    });

    it('plans and writes with the model: a streamed task completes in llm mode, its citations within its sources', async () => {
      const key = await newKey();
      const response = await fetch(`${gateway.baseUrl}/research`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ input: 'How do git merge and git rebase differ?', model: 'mini', stream: true }),
      });
      expect(response.status).toBe(200);
      const frames = framesOf(await response.text());
      expect(frames.at(-1)?.event).toBe('done');
      const deltas = frames.filter((frame) => !frame.event).map((frame) => JSON.parse(frame.data).choices[0].delta);
      const requestId = JSON.parse(frames[0].data).id;
      const pieces = deltas.flatMap((delta) => (typeof delta.content === 'string' ? [delta.content] : []));
      expect(pieces.length).toBeGreaterThanOrEqual(3);

      const done = await finished(key.apiKey, requestId, '?include_usage=true');
      expect(done.status).toBe('completed');
      expect(pieces.join('')).toBe(done.content);
      const report = done.content as string;
      const sources = done.sources ?? [];
      expect(sources).toHaveLength(2);
      expect(report).toContain('A merge joins two development histories [1]. A rebase reapplies commits on another base [2].');
      const numbers = [...report.matchAll(/\[(\d+)\]/g)].map((match) => Number(match[1]));
      for (const number of numbers) expect(number >= 1 && number <= sources.length).toBe(true);
      expect(deltas.at(-1)).toEqual(expect.objectContaining({ sources }));
      // The model was asked twice, the report in its streaming form, over the sources the worker read.
      const asked = model.received.filter((request) => request.messages.some((message) => message.content.includes('How do git merge and git rebase differ?')));
      expect(asked.map((request) => Boolean(request.stream))).toEqual([false, true]);
      expect((await gateway.prisma.researchTask.findUnique({ where: { requestId } }))?.mode).toBe('llm');
      expect(done.report_mode).toBe('llm');
      expect((await gateway.prisma.requestLog.findUnique({ where: { requestId } }))?.detail).toMatchObject({ mode: 'llm' });
      expect(await logsOf(key.apiKey)).toEqual([{ endpoint: 'research', request_id: requestId, credits: done.usage?.credits }]);
      expect(done.usage?.credits).toBeGreaterThan(0);
    });

    it('a task that runs out of time answers GET with what it gathered: completed, partial, charged for its work', async () => {
      // A gateway whose mini tasks have 25 s (the task wraps up 5 s before), on the same queue and workers: the model
      // never stops writing, so the task always runs out of time; the 20 s leave its searches and pages room to
      // arrive on a machine loaded by the whole suite, so that it has something to write from.
      const hurried = await startTestGateway({ QUEUE_PREFIX: extractor.queuePrefix, FETCH_ALLOW_CIDRS: '127.0.0.1/32', RESEARCH_DEADLINE_MINI_SECONDS: '25' });
      endless = true;
      try {
        const key = await newKey();
        const started = await callGateway<ResearchBody>(hurried.baseUrl, 'POST', '/research', { apiKey: key.apiKey, body: { input: 'What does git rebase do to commits?', model: 'mini' } });
        expect(started.status).toBe(200);
        const done = await finished(key.apiKey, started.body.request_id, '?include_usage=true');
        expect(done).toMatchObject({
          status: 'completed',
          partial: true,
          partial_reason: expect.stringMatching(/^The research task reached its deadline before it finished; the report is written from the \d+ sources found by then\.$/),
          // No time was left for the model: the report is the sources' own sentences.
          report_mode: 'extractive',
        });
        expect(done.content).not.toContain('and it goes on');
        expect(done.sources?.length).toBeGreaterThan(0);
        for (const number of [...String(done.content).matchAll(/\[(\d+)\]/g)].map((match) => Number(match[1]))) expect(number).toBeLessThanOrEqual(done.sources?.length ?? 0);
        // Finished before its deadline, and charged as completed for the searches and pages it did, once.
        const row = await gateway.prisma.researchTask.findUniqueOrThrow({ where: { requestId: started.body.request_id } });
        expect(row.completedAt!.getTime()).toBeLessThan(row.deadlineAt.getTime());
        const ledger = await ledgerOf(started.body.request_id);
        expect(ledger.credits).toBeGreaterThan(0);
        expect(ledger.held).toBe(0);
        expect(done.usage).toEqual({ credits: ledger.credits });
        // The model was writing when the time ran out.
        expect(model.received.some((request) => request.stream && request.messages.some((message) => message.content.includes('What does git rebase do to commits?')))).toBe(true);
      } finally {
        endless = false;
        await hurried.close();
      }
    });
  });

  describe('deadlines', () => {
    let stuck: TestGateway;

    beforeAll(async () => {
      // A gateway whose tasks no worker consumes (its own queue prefix), whose mini deadline is one second and whose
      // per-key research budget is two requests a minute.
      stuck = await startTestGateway({ QUEUE_PREFIX: `stuck-${randomUUID().slice(0, 8)}`, RESEARCH_DEADLINE_MINI_SECONDS: '1', RATE_LIMIT_RESEARCH_PER_MINUTE: '2' });
    });

    afterAll(async () => {
      await stuck?.close();
    });

    it('fails a task no worker ran once its deadline passes, on GET, and charges nothing', async () => {
      const key = await newKey();
      const started = await callGateway<ResearchBody>(stuck.baseUrl, 'POST', '/research', { apiKey: key.apiKey, body: { input: 'What is git?', model: 'mini' } });
      expect(started.status).toBe(200);
      expect((await ledgerOf(started.body.request_id)).held).toBe(1);
      const failed = await eventually('the deadline', async () => {
        const answer = await callGateway<ResearchBody>(stuck.baseUrl, 'GET', `/research/${started.body.request_id}?include_usage=true`, { apiKey: key.apiKey });
        return answer.status === 200 ? answer : undefined;
      });
      expect(failed.body).toEqual({
        request_id: started.body.request_id,
        status: 'failed',
        error: 'The research task did not finish before its deadline.',
        response_time: expect.any(Number),
        usage: { credits: 0 },
      });
      // Whoever failed it (this GET or the research workers' sweep) released its hold first.
      const ledger = await ledgerOf(started.body.request_id);
      expect(ledger).toEqual({ rows: 0, kinds: [], credits: 0, held: 0 });
    });

    it('limits POST /research per key and minute; polling spends only the key\'s general budget', async () => {
      const key = await newKey();
      const post = () => callGateway<ResearchBody>(stuck.baseUrl, 'POST', '/research', { apiKey: key.apiKey, body: { input: 'What is git?', model: 'mini' } });
      const first = await post();
      expect((await post()).status).toBe(200);
      const refused = await post();
      expect(refused.status).toBe(429);
      expect((refused.body as unknown as ErrorBody).detail.error).toEqual(expect.any(String));
      for (let attempt = 0; attempt < 3; attempt += 1) {
        expect([200, 202]).toContain((await callGateway(stuck.baseUrl, 'GET', `/research/${first.body.request_id}`, { apiKey: key.apiKey })).status);
      }
    });

    it('fails an overdue task with nobody asking: the research worker sweeps it and releases its credits', async () => {
      const key = await newKey();
      const started = await callGateway<ResearchBody>(stuck.baseUrl, 'POST', '/research', { apiKey: key.apiKey, body: { input: 'What is git?', model: 'mini' } });
      const row = await eventually('the sweep', async () => {
        const task = await gateway.prisma.researchTask.findUnique({ where: { requestId: started.body.request_id } });
        return task?.status === 'failed' ? task : undefined;
      });
      expect(row.error).toBe('The research task did not finish before its deadline.');
      expect(await ledgerOf(started.body.request_id)).toEqual({ rows: 0, kinds: [], credits: 0, held: 0 });
    });
  });
});
