import { randomUUID } from 'node:crypto';
import { FixtureServer, startFixtureServer } from '@sift/safe-fetch';
import { callGateway, createTestAccount, createTestKey, GitDocsSite, startGitDocsSite, type TestKey } from '@sift/testing';
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

async function eventually<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

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
    searxng = await startFixtureServer({
      '/search': (request, response) => {
        const query = new URL(request.url ?? '/', 'http://searxng').searchParams.get('q') ?? '';
        const origin = query.includes(slowMarker) ? slowSite.origin : site.origin;
        const results = [
          { url: `${origin}/git-merge.html`, title: 'git-merge(1)', content: 'Join two or more development histories together', engine: 'fixture' },
          { url: `${origin}/git-rebase.html`, title: 'git-rebase(1)', content: 'Reapply commits on top of another base tip', engine: 'fixture' },
          // The same site under another name: exclude_domains ["localhost"] must keep it out.
          { url: `http://localhost:${port}/git-branch.html`, title: 'git-branch(1)', content: 'List, create, or delete branches', engine: 'fixture' },
        ];
        response.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({ query, number_of_results: results.length, results, answers: [], corrections: [], infoboxes: [], suggestions: [], unresponsive_engines: [] }),
        );
      },
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
    return eventually(`task ${requestId} finishing`, async () => {
      const answer = await poll(apiKey, requestId, query);
      if (answer.status === 200) return answer.body;
      expect(answer.status).toBe(202);
      expect(['pending', 'in_progress']).toContain(answer.body.status);
      return undefined;
    });
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
    expect(done).toMatchObject({ request_id: started.body.request_id, status: 'completed', created_at: started.body.created_at, completed_at: expect.any(String) });
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
    const logs = await callGateway<{ logs: Array<{ endpoint: string; request_id: string }> }>(gateway.baseUrl, 'POST', '/logs', {
      apiKey: key.apiKey,
      body: { endpoints: ['research'] },
    });
    expect(logs.body.logs.map((log) => [log.endpoint, log.request_id])).toEqual([['research', started.body.request_id]]);
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
      expect(await ledgerOf(started.body.request_id)).toEqual({ rows: 0, kinds: [], credits: 0, held: 0 });
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
