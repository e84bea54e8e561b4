import { randomUUID } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { TOKEN_BUDGET_CUT_MARKER } from '@sift/api-contracts';
import type { FixtureServer } from '@sift/safe-fetch';
import { callGateway, createTestAccount, createTestKey, GitDocsSite, startGitDocsSite, startLoopbackSearxng } from '@sift/testing';
import { countTokens } from '../http/token-budget';
import { ResearchService } from '../research/research.service';
import { startTestGateway, TestGateway } from '../testing/gateway-harness';
import { startWorkerProcess, WorkerProcess } from '../testing/worker-process';

type ToolAnswer = Awaited<ReturnType<Client['callTool']>>;

interface ResearchBody {
  request_id: string;
  status: 'pending' | 'in_progress' | 'completed' | 'failed';
  content?: string;
  sources?: Array<{ title: string; url: string }>;
  error?: string;
  token_budget?: { max_tokens: number; returned_tokens: number; cut: boolean };
  response_time: number;
}

// Whole research tasks run here, read through a real extractor worker.
jest.setTimeout(180_000);

async function eventually<T>(what: string, probe: () => T | undefined, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Longer than the SDK client's 60 s default, for calls that wait for a whole task. */
const LONG_CALL = { timeout: 170_000 };

// The research tool, driven by the official MCP SDK client over streamable HTTP, against the real gateway, a real
// research worker process and extractor worker process, a loopback SearXNG and the loopback Git documentation site.
describe('MCP research tool', () => {
  let gateway: TestGateway;
  let extractor: WorkerProcess;
  let research: WorkerProcess;
  let site: GitDocsSite;
  let searxng: FixtureServer;

  beforeAll(async () => {
    site = await startGitDocsSite();
    searxng = await startLoopbackSearxng([
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

  async function newKey(): Promise<{ apiKey: string; accountId: string }> {
    const account = await createTestAccount(gateway.prisma, { plan: 'growth' });
    return { apiKey: (await createTestKey(gateway.prisma, account.id)).apiKey, accountId: account.id };
  }

  async function withClient<T>(url: string, use: (client: Client) => Promise<T>): Promise<T> {
    const client = new Client({ name: 'sift-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    try {
      return await use(client);
    } finally {
      await client.close();
    }
  }

  function mcpUrl(on: TestGateway, apiKey: string): string {
    return `${on.baseUrl}/mcp?tavilyApiKey=${encodeURIComponent(apiKey)}`;
  }

  function textOf(answer: ToolAnswer): string {
    return (answer.content as Array<{ type: string; text: string }>)[0].text;
  }

  function callResearch(client: Client, args: Record<string, unknown>): Promise<ToolAnswer> {
    return client.callTool({ name: 'tavily_research', arguments: args }, undefined, LONG_CALL);
  }

  function callGetResearch(client: Client, args: Record<string, unknown>): Promise<ToolAnswer> {
    return client.callTool({ name: 'tavily_get_research', arguments: args }, undefined, LONG_CALL);
  }

  async function researchLogs(on: TestGateway, apiKey: string): Promise<Array<{ request_id: string; credits: number }>> {
    const logs = await callGateway<{ logs: Array<{ request_id: string; credits: number }> }>(on.baseUrl, 'POST', '/logs', { apiKey, body: { endpoints: ['research'] } });
    expect(logs.status).toBe(200);
    return logs.body.logs;
  }

  /**
   * A completed task's answer: the report and its numbered sources as text, the GET /research/{id} answer as structured
   * content, with the call's token budget (the tools' default unless given); the task itself is not cut by it.
   */
  async function expectReport(apiKey: string, answer: ToolAnswer, maxTokens = 8000): Promise<ResearchBody> {
    const task = answer.structuredContent as unknown as ResearchBody;
    expect({ isError: answer.isError ?? false, status: task.status, error: task.error }).toEqual({ isError: false, status: 'completed', error: undefined });
    expect(task.content?.length).toBeGreaterThan(0);
    expect(task.sources?.length).toBeGreaterThan(0);
    expect(task.sources?.some((source) => source.url.startsWith(site.origin))).toBe(true);
    const sourceLines = (task.sources ?? []).map((source, index) => `${index + 1}. ${source.title}: ${source.url}`);
    expect(textOf(answer)).toBe([task.content, '', 'Sources:', ...sourceLines].join('\n'));
    const { token_budget: budget, ...withoutBudget } = task;
    expect(budget).toEqual({ max_tokens: maxTokens, returned_tokens: countTokens(task.content ?? ''), cut: false });
    const rest = await callGateway<ResearchBody>(gateway.baseUrl, 'GET', `/research/${task.request_id}`, { apiKey });
    expect(rest.status).toBe(200);
    expect({ ...rest.body, response_time: 0 }).toEqual({ ...withoutBudget, response_time: 0 });
    return task;
  }

  it('starts a task, waits for it and returns the cited report; the call is in /logs as research, charged once done', async () => {
    const key = await newKey();
    const answer = await withClient(mcpUrl(gateway, key.apiKey), (client) =>
      callResearch(client, { input: 'How do I join two development histories with git merge?', model: 'mini', timeout: 150 }),
    );
    const task = await expectReport(key.apiKey, answer);
    // Logged when the task is accepted, as POST /research is; the row takes the task's charge when it completes.
    const usage = await callGateway<{ key: { research_usage: number } }>(gateway.baseUrl, 'GET', '/usage', { apiKey: key.apiKey });
    expect(usage.body.key.research_usage).toBeGreaterThan(0);
    // The worker writes the charge into the row just after it settles: wait for it rather than race it.
    let logged = await researchLogs(gateway, key.apiKey);
    for (let tries = 0; tries < 100 && logged[0]?.credits !== usage.body.key.research_usage; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      logged = await researchLogs(gateway, key.apiKey);
    }
    expect(logged.map((log) => [log.request_id, log.credits])).toEqual([[task.request_id, usage.body.key.research_usage]]);
  });

  it('with timeout 0 returns the running task\'s request_id at once; tavily_get_research with that request_id waits for the report', async () => {
    const key = await newKey();
    await withClient(mcpUrl(gateway, key.apiKey), async (client) => {
      const started = await callResearch(client, { input: 'What does git rebase do to commits?', model: 'mini', timeout: 0 });
      const running = started.structuredContent as unknown as ResearchBody;
      expect({ isError: started.isError ?? false, status: running.status }).toEqual({ isError: false, status: expect.stringMatching(/^(pending|in_progress)$/) });
      expect(Object.keys(running).sort()).toEqual(['request_id', 'response_time', 'status']);
      expect(textOf(started)).toContain(`Call tavily_get_research with {"request_id": "${running.request_id}"}`);

      const resumed = await callGetResearch(client, { request_id: running.request_id, timeout: 150 });
      const task = await expectReport(key.apiKey, resumed);
      expect(task.request_id).toBe(running.request_id);
    });
    // Waiting again is a poll: the one task, logged once.
    expect(await gateway.prisma.researchTask.count({ where: { accountId: key.accountId } })).toBe(1);
    expect(await researchLogs(gateway, key.apiKey)).toHaveLength(1);
  });

  it('max_tokens cuts the report a call returns; tavily_get_research applies its own budget to the same task', async () => {
    const key = await newKey();
    await withClient(mcpUrl(gateway, key.apiKey), async (client) => {
      const cut = await callResearch(client, { input: 'What does git rebase do to commits?', model: 'mini', timeout: 150, max_tokens: 50 });
      const task = cut.structuredContent as unknown as ResearchBody;
      expect({ isError: cut.isError ?? false, status: task.status }).toEqual({ isError: false, status: 'completed' });
      expect(task.content?.endsWith(TOKEN_BUDGET_CUT_MARKER)).toBe(true);
      expect(task.token_budget).toEqual({ max_tokens: 50, returned_tokens: countTokens(task.content ?? ''), cut: true });
      expect(task.token_budget!.returned_tokens).toBeLessThanOrEqual(50);
      expect(textOf(cut).startsWith(`${task.content}\n\nSources:\n1. `)).toBe(true);
      // A max_tokens the call sets is the request's, stored with the task: GET /research/{id} answers the same cut.
      const rest = await callGateway<ResearchBody>(gateway.baseUrl, 'GET', `/research/${task.request_id}`, { apiKey: key.apiKey });
      expect({ ...rest.body, response_time: 0 }).toEqual({ ...task, response_time: 0 });
      // Waiting on the task again with a larger budget returns more of the same report.
      const again = (await callGetResearch(client, { request_id: task.request_id, max_tokens: 2000 })).structuredContent as unknown as ResearchBody;
      expect(again.token_budget).toMatchObject({ max_tokens: 2000 });
      expect(again.content!.length).toBeGreaterThan(task.content!.length);
      expect(again.content!.startsWith(task.content!.slice(0, -TOKEN_BUDGET_CUT_MARKER.length))).toBe(true);
    });
  });

  it('refuses bad arguments as POST /research and GET /research/{id} do, starting nothing', async () => {
    const key = await newKey();
    const restModel = await callGateway<{ detail: { error: string } }>(gateway.baseUrl, 'POST', '/research', { apiKey: key.apiKey, body: { input: 'q', model: 'max' } });
    const restNoInput = await callGateway<{ detail: { error: string } }>(gateway.baseUrl, 'POST', '/research', { apiKey: key.apiKey, body: { model: 'mini' } });
    const restUnknown = await callGateway<{ detail: { error: string } }>(gateway.baseUrl, 'GET', `/research/${randomUUID()}`, { apiKey: key.apiKey });
    await withClient(mcpUrl(gateway, key.apiKey), async (client) => {
      const cases: Array<{ args: Record<string, unknown>; text: string }> = [
        { args: { input: 'q', model: 'max' }, text: `${restModel.status}: ${restModel.body.detail.error}` },
        { args: { model: 'mini' }, text: `${restNoInput.status}: ${restNoInput.body.detail.error}` },
        { args: { input: 'q', timeout: 901 }, text: '400: Invalid request: timeout must not be greater than 900' },
        { args: { input: 'q', timeout: -1 }, text: '400: Invalid request: timeout must not be less than 0' },
        { args: { request_id: randomUUID() }, text: `${restUnknown.status}: ${restUnknown.body.detail.error}` },
      ];
      for (const { args, text } of cases) {
        const answer = await callResearch(client, args);
        expect({ args, isError: answer.isError, text: textOf(answer) }).toEqual({ args, isError: true, text });
      }
      const getResearchCases: Array<{ args: Record<string, unknown>; text: string | RegExp }> = [
        { args: { request_id: randomUUID() }, text: `${restUnknown.status}: ${restUnknown.body.detail.error}` },
        { args: { request_id: randomUUID(), timeout: 901 }, text: '400: Invalid request: timeout must not be greater than 900' },
        { args: { input: 'q' }, text: /^400: Invalid request: request_id / },
        { args: { request_id: randomUUID(), max_tokens: 10 }, text: '400: Invalid request: max_tokens must not be less than 50' },
      ];
      for (const { args, text } of getResearchCases) {
        const answer = await callGetResearch(client, args);
        expect({ args, isError: answer.isError, text: textOf(answer) }).toEqual({ args, isError: true, text: typeof text === 'string' ? text : expect.stringMatching(text) });
      }
    });
    expect(restModel.body.detail.error).toBe('Invalid model. Must be one of: mini, pro, auto');
    expect(await gateway.prisma.researchTask.count({ where: { accountId: key.accountId } })).toBe(0);
  });

  describe('on a gateway whose tasks no worker runs', () => {
    let stuck: TestGateway;

    beforeAll(async () => {
      // Its own queue prefix (no worker), a one-second mini deadline and a research budget of two starts a minute.
      stuck = await startTestGateway({ QUEUE_PREFIX: `stuck-${randomUUID().slice(0, 8)}`, RESEARCH_DEADLINE_MINI_SECONDS: '1', RATE_LIMIT_RESEARCH_PER_MINUTE: '2' });
    });

    afterAll(async () => {
      await stuck?.close();
    });

    it("answers a failed task with a tool error carrying the task's error", async () => {
      const key = await newKey();
      const answer = await withClient(mcpUrl(stuck, key.apiKey), (client) => callResearch(client, { input: 'What is git?', model: 'mini', timeout: 20 }));
      const task = answer.structuredContent as unknown as ResearchBody;
      expect({ isError: answer.isError, status: task.status, text: textOf(answer) }).toEqual({
        isError: true,
        status: 'failed',
        text: `Research task ${task.request_id} failed: The research task did not finish before its deadline.`,
      });
    });

    it('spends the research budget per task started; waiting again spends only the general one', async () => {
      const key = await newKey();
      const started = await withClient(mcpUrl(stuck, key.apiKey), async (client) => {
        const first = await callResearch(client, { input: 'What is git?', model: 'pro', timeout: 0 });
        const second = await callResearch(client, { input: 'What is git?', model: 'pro', timeout: 0 });
        expect(second.isError).toBeFalsy();
        const refused = await callResearch(client, { input: 'What is git?', model: 'pro', timeout: 0 });
        expect({ isError: refused.isError, text: textOf(refused) }).toEqual({ isError: true, text: expect.stringMatching(/^429: Rate limit exceeded/) });
        const requestId = (first.structuredContent as unknown as ResearchBody).request_id;
        for (let attempt = 0; attempt < 4; attempt += 1) {
          const resumed = await (attempt % 2 === 0 ? callResearch : callGetResearch)(client, { request_id: requestId, timeout: 0 });
          expect({ isError: resumed.isError ?? false, status: (resumed.structuredContent as unknown as ResearchBody).status }).toEqual({ isError: false, status: 'pending' });
        }
        return [first, second].map((answer) => (answer.structuredContent as unknown as ResearchBody).request_id);
      });
      // The two starts and the refused one are logged, as their REST twins would be; the polls are not.
      const logged = (await researchLogs(stuck, key.apiKey)).map((log) => log.request_id);
      expect(logged).toHaveLength(3);
      expect(logged).toEqual(expect.arrayContaining(started));
    });

    it('stops polling when the client goes away, and leaves the task to run', async () => {
      const key = await newKey();
      // Observed, not replaced: every poll still reads the task.
      const polls = jest.spyOn(stuck.app.get(ResearchService, { strict: false }), 'poll');
      try {
        const client = new AbortController();
        const call = fetch(`${stuck.baseUrl}/mcp`, {
          method: 'POST',
          signal: client.signal,
          headers: { authorization: `Bearer ${key.apiKey}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'tavily_research', arguments: { input: 'What is git?', model: 'pro', timeout: 60 } } }),
        });
        // The first poll comes at once, the second after 0.5 s, the next 0.75 s later: the client leaves in between.
        await eventually('the second poll', () => (polls.mock.calls.length >= 2 ? true : undefined));
        client.abort();
        await expect(call).rejects.toThrow();
        const pollsWhenGone = polls.mock.calls.length;
        // Waiting on would have polled twice more in these 3 s (1.25 s and 2.4 s after the start).
        await new Promise((resolve) => setTimeout(resolve, 3_000));
        expect(polls.mock.calls.length).toBe(pollsWhenGone);
      } finally {
        polls.mockRestore();
      }
      const task = await gateway.prisma.researchTask.findFirstOrThrow({ where: { accountId: key.accountId } });
      expect(task.status).toBe('pending');
    });
  });
});
