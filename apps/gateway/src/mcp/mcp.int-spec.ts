import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { FixtureServer, startFixtureServer } from '@sift/safe-fetch';
import { webPageOf } from '@sift/content-extraction';
import { PageRepository } from '@sift/pages';
import { callGateway, createTestAccount, createTestKey } from '@sift/testing';
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { startTestGateway, TestGateway, uniqueClientIp } from '../testing/gateway-harness';
import { startWorkerProcess, WorkerProcess } from '../testing/worker-process';

type ToolAnswer = Awaited<ReturnType<Client['callTool']>>;

interface LogEntry {
  request_id: string;
  endpoint: string;
  depth: string | null;
  credits: number;
  api_key: string | null;
}

jest.setTimeout(60_000);

// The remote tool server, driven by the official MCP SDK client over streamable HTTP, against the real gateway,
// real extractor and crawler workers, and loopback fixture sites.
describe('MCP endpoint /mcp', () => {
  let gateway: TestGateway;
  let extractor: WorkerProcess;
  let crawler: WorkerProcess;
  let site: FixtureServer;
  const marker = `zebrafinch${randomBytes(3).toString('hex')}`;
  const guideUrl = `https://docs-${marker}.example/guide`;

  const article = (title: string, body: string, links: string[] = []) =>
    `<html><head><title>${title}</title></head><body><article><h1>${title}</h1><p>${body.repeat(20)}</p>` +
    `${links.map((link) => `<a href="${link}">${link}</a>`).join(' ')}</article></body></html>`;

  beforeAll(async () => {
    const html = (text: string) => (_request: IncomingMessage, response: ServerResponse) => response.writeHead(200, { 'content-type': 'text/html' }).end(text);
    site = await startFixtureServer({
      '/page': html(article('MCP page', 'Tools for agents over MCP. ')),
      '/docs': html(article('Docs home', 'The documentation of the fixture site. ', ['/docs/install', '/docs/usage'])),
      '/docs/install': html(article('Install', 'Install the fixture tool with one command. ')),
      '/docs/usage': html(article('Usage', 'Use the fixture tool from an agent. ')),
    });
    extractor = await startWorkerProcess('extractor-worker');
    crawler = await startWorkerProcess('crawler-worker', { QUEUE_PREFIX: extractor.queuePrefix });
    gateway = await startTestGateway({ QUEUE_PREFIX: extractor.queuePrefix, FETCH_ALLOW_CIDRS: '127.0.0.1/32', KEYLESS_REQUESTS_PER_MINUTE: '20' });
    await new PageRepository(gateway.prisma).save(
      'operator',
      webPageOf({
        finalUrl: guideUrl,
        title: `The ${marker} field guide`,
        text: `Everything about the ${marker}: its song, its range and its nesting habits. `.repeat(5),
      }),
      'import',
    );
  }, 120_000);

  afterAll(async () => {
    await Promise.all([gateway?.close(), extractor?.stop(), crawler?.stop(), site?.close()]);
  });

  async function newKey(): Promise<string> {
    const account = await createTestAccount(gateway.prisma, { plan: 'growth' });
    return (await createTestKey(gateway.prisma, account.id)).apiKey;
  }

  async function connect(url: string, headers: Record<string, string> = {}): Promise<Client> {
    const client = new Client({ name: 'sift-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
    return client;
  }

  async function withClient<T>(url: string, headers: Record<string, string>, use: (client: Client) => Promise<T>): Promise<T> {
    const client = await connect(url, headers);
    try {
      return await use(client);
    } finally {
      await client.close();
    }
  }

  function textOf(answer: ToolAnswer): string {
    return (answer.content as Array<{ type: string; text: string }>)[0].text;
  }

  /** A successful call's REST response: the structured content, which the text carries as JSON too. */
  function responseOf<T>(answer: ToolAnswer): T {
    expect({ isError: answer.isError ?? false, text: textOf(answer).slice(0, 300) }).toEqual({ isError: false, text: expect.any(String) });
    expect(JSON.parse(textOf(answer))).toEqual(answer.structuredContent);
    return answer.structuredContent as T;
  }

  async function logsOf(apiKey: string): Promise<LogEntry[]> {
    const logs = await callGateway<{ logs: LogEntry[] }>(gateway.baseUrl, 'POST', '/logs', { apiKey, body: {} });
    expect(logs.status).toBe(200);
    return logs.body.logs;
  }

  it('serves a client given only the URL (?tavilyApiKey=): lists the tools with the REST schemas and runs each one', async () => {
    const apiKey = await newKey();
    const mcpUrl = `${gateway.baseUrl}/mcp?tavilyApiKey=${encodeURIComponent(apiKey)}`;
    const openApi = await callGateway<{ components: { schemas: Record<string, { properties: Record<string, unknown> }> } }>(gateway.baseUrl, 'GET', '/openapi.json');
    await withClient(mcpUrl, {}, async (client) => {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual(['tavily_crawl', 'tavily_extract', 'tavily_feedback', 'tavily_get_research', 'tavily_map', 'tavily_research', 'tavily_search']);
      const schemaOf = (name: string) => tools.find((tool) => tool.name === name)?.inputSchema as { properties: Record<string, Record<string, unknown>>; required: string[] };
      // Every field of each REST body, with the body's limits and descriptions.
      for (const [tool, dto] of [['tavily_search', 'SearchRequestDto'], ['tavily_extract', 'ExtractRequestDto'], ['tavily_crawl', 'CrawlRequestDto'], ['tavily_map', 'MapRequestDto'], ['tavily_feedback', 'FeedbackRequestDto']]) {
        expect(Object.keys(schemaOf(tool).properties).sort()).toEqual(Object.keys(openApi.body.components.schemas[dto].properties).sort());
      }
      // Research: the body without stream (a tool call cannot stream), plus how long to wait and which task to wait on.
      const researchFields = Object.keys(openApi.body.components.schemas.ResearchRequestDto.properties).filter((name) => name !== 'stream');
      expect(Object.keys(schemaOf('tavily_research').properties).sort()).toEqual([...researchFields, 'request_id', 'timeout'].sort());
      // A model picks arguments by their descriptions: every argument has one, nested ones included.
      const undescribed = (properties: Record<string, Record<string, unknown>>, path: string): string[] =>
        Object.entries(properties).flatMap(([name, property]) => {
          const items = property.items as { properties?: Record<string, Record<string, unknown>> } | undefined;
          return [...(property.description ? [] : [`${path}.${name}`]), ...(items?.properties ? undescribed(items.properties, `${path}.${name}[]`) : [])];
        });
      expect(tools.flatMap((tool) => undescribed(schemaOf(tool.name).properties, tool.name))).toEqual([]);
      expect(schemaOf('tavily_search').required).toEqual(['query']);
      expect(schemaOf('tavily_search').properties.max_results).toMatchObject({ type: 'integer', minimum: 0, maximum: 20, default: 10 });
      expect(schemaOf('tavily_search').properties.search_depth).toMatchObject({ enum: ['basic', 'advanced', 'fast', 'ultra-fast'], description: expect.stringContaining('2 credits') });
      expect(schemaOf('tavily_crawl').required).toEqual(['url']);
      expect(schemaOf('tavily_crawl').properties.max_breadth).toMatchObject({ minimum: 1, maximum: 500 });
      expect(schemaOf('tavily_research').required).toEqual([]);
      expect(schemaOf('tavily_research').properties.timeout).toMatchObject({ type: 'number', minimum: 0, maximum: 900, default: 50, description: expect.stringContaining('request_id') });
      // Tavily's get-research tool: the task's request_id (required) and how long to wait, with research's bounds.
      expect(Object.keys(schemaOf('tavily_get_research').properties).sort()).toEqual(['max_tokens', 'request_id', 'timeout']);
      // Every tool that returns page text, URLs or a report has a token budget by default, said in its schema.
      for (const tool of ['tavily_search', 'tavily_extract', 'tavily_crawl', 'tavily_map', 'tavily_research', 'tavily_get_research']) {
        expect({ tool, max_tokens: schemaOf(tool).properties.max_tokens }).toEqual({ tool, max_tokens: expect.objectContaining({ type: 'integer', minimum: 50, default: 8000 }) });
      }
      expect(schemaOf('tavily_get_research').required).toEqual(['request_id']);
      expect(schemaOf('tavily_get_research').properties.timeout).toMatchObject({ type: 'number', minimum: 0, maximum: 900, default: 50 });
      expect(schemaOf('tavily_research').properties.model).toMatchObject({ enum: ['mini', 'pro', 'auto'], default: 'auto', description: expect.stringContaining('mini') });
      expect(schemaOf('tavily_feedback').properties.urls_scores).toMatchObject({ maxItems: 100, items: { properties: { url: { maxLength: 2000 } } } });

      const search = responseOf<{ results: Array<{ url: string }>; request_id: string }>(
        await client.callTool({ name: 'tavily_search', arguments: { query: `${marker} nesting`, search_depth: 'fast' } }),
      );
      expect(search.results[0].url).toBe(guideUrl);

      const extract = responseOf<{ results: Array<{ url: string; raw_content: string }> }>(
        await client.callTool({ name: 'tavily_extract', arguments: { urls: [`${site.url}/page`], format: 'text' } }),
      );
      expect(extract.results[0].raw_content).toContain('Tools for agents over MCP.');

      const crawl = responseOf<{ results: Array<{ url: string; raw_content: string }> }>(
        await client.callTool({ name: 'tavily_crawl', arguments: { url: `${site.url}/docs`, max_depth: 1, limit: 10 } }),
      );
      expect(crawl.results.map((result) => result.url).sort()).toEqual([`${site.url}/docs`, `${site.url}/docs/install`, `${site.url}/docs/usage`]);
      expect(crawl.results.find((result) => result.url.endsWith('/install'))?.raw_content).toContain('Install the fixture tool');

      const map = responseOf<{ results: string[] }>(await client.callTool({ name: 'tavily_map', arguments: { url: `${site.url}/docs` } }));
      expect(map.results).toEqual(expect.arrayContaining([`${site.url}/docs/install`, `${site.url}/docs/usage`]));

      const feedback = responseOf<{ success: boolean; feedback_id: string }>(
        await client.callTool({ name: 'tavily_feedback', arguments: { request_id: search.request_id, agent_score: 4, used_urls: [guideUrl] } }),
      );
      expect(feedback.success).toBe(true);
      const stored = await gateway.prisma.feedback.findUniqueOrThrow({ where: { id: feedback.feedback_id } });
      expect({ requestId: stored.requestId, agentScore: stored.agentScore }).toEqual({ requestId: search.request_id, agentScore: '4' });
    });
    // The URL's key authenticated the calls: they are this key's requests, one per billed tool call.
    expect((await logsOf(apiKey)).map((log) => log.endpoint).sort()).toEqual(['crawl', 'extract', 'map', 'search']);
  });

  it('logs and bills a tool call exactly as its REST twin: the same row in /logs, the same figures in /usage', async () => {
    const apiKey = await newKey();
    const search = { query: `${marker} song`, search_depth: 'advanced' };
    const extract = { urls: [`${site.url}/page`], extract_depth: 'basic' };
    const rest = {
      search: await callGateway<{ request_id: string }>(gateway.baseUrl, 'POST', '/search', { apiKey, body: search }),
      extract: await callGateway<{ request_id: string }>(gateway.baseUrl, 'POST', '/extract', { apiKey, body: extract }),
    };
    const usageBefore = await callGateway<{ key: Record<string, number> }>(gateway.baseUrl, 'GET', '/usage', { apiKey });
    const tool = await withClient(`${gateway.baseUrl}/mcp`, { Authorization: `Bearer ${apiKey}` }, async (client) => ({
      search: responseOf<{ request_id: string }>(await client.callTool({ name: 'tavily_search', arguments: search })),
      extract: responseOf<{ request_id: string }>(await client.callTool({ name: 'tavily_extract', arguments: extract })),
    }));
    const usageAfter = await callGateway<{ key: Record<string, number> }>(gateway.baseUrl, 'GET', '/usage', { apiKey });

    const logs = await logsOf(apiKey);
    const row = (requestId: string) => {
      const entry = logs.find((log) => log.request_id === requestId);
      return entry && { endpoint: entry.endpoint, depth: entry.depth, credits: entry.credits, api_key: entry.api_key };
    };
    expect(row(tool.search.request_id)).toEqual(row(rest.search.body.request_id));
    expect(row(tool.search.request_id)).toMatchObject({ endpoint: 'search', depth: 'advanced', credits: 2 });
    expect(row(tool.extract.request_id)).toEqual(row(rest.extract.body.request_id));
    expect(row(tool.extract.request_id)).toMatchObject({ endpoint: 'extract', depth: 'basic' });
    // The key was fresh: /usage before the tool calls shows what the REST calls cost, and the tool calls add as much.
    for (const field of ['usage', 'search_usage', 'extract_usage']) {
      expect({ field, spent: usageAfter.body.key[field] - usageBefore.body.key[field] }).toEqual({ field, spent: usageBefore.body.key[field] });
    }
  });

  it('answers invalid arguments with a tool error carrying the REST status and message', async () => {
    const apiKey = await newKey();
    const cases: Array<{ tool: string; path: string; body: Record<string, unknown> }> = [
      { tool: 'tavily_search', path: '/search', body: { query: 'x', max_results: 50 } },
      { tool: 'tavily_search', path: '/search', body: { query: 'x', search_depth: 'fast', safe_search: true } },
      { tool: 'tavily_extract', path: '/extract', body: { urls: [] } },
      { tool: 'tavily_crawl', path: '/crawl', body: { max_depth: 2 } },
      { tool: 'tavily_map', path: '/map', body: { url: `${site.url}/docs`, max_depth: 9 } },
      { tool: 'tavily_feedback', path: '/feedback', body: { agent_score: 3 } },
      { tool: 'tavily_feedback', path: '/feedback', body: { request_id: 'r'.repeat(201) } },
    ];
    await withClient(`${gateway.baseUrl}/mcp`, { Authorization: `Bearer ${apiKey}` }, async (client) => {
      for (const { tool, path, body } of cases) {
        const rest = await callGateway<{ detail: { error: string } }>(gateway.baseUrl, 'POST', path, { apiKey, body });
        expect(rest.status).toBeGreaterThanOrEqual(400);
        const answer = await client.callTool({ name: tool, arguments: body });
        expect({ tool, isError: answer.isError, text: textOf(answer), structured: answer.structuredContent }).toEqual({
          tool,
          isError: true,
          text: `${rest.status}: ${rest.body.detail.error}`,
          structured: rest.body,
        });
      }
    });
    // A refused call is the key's request all the same, logged with the REST status and charged nothing.
    const refusedSearches = (await logsOf(apiKey)).filter((log) => log.endpoint === 'search');
    expect(refusedSearches.map((log) => log.credits)).toEqual([0, 0, 0, 0]);
  });

  it('asks a client without a key to sign in, and serves keyless clients the search and extract tools only', async () => {
    await expect(connect(`${gateway.baseUrl}/mcp`)).rejects.toThrow(/401|Unauthorized/);
    await withClient(`${gateway.baseUrl}/mcp`, { 'X-Service-Access-Mode': 'keyless', 'X-Forwarded-For': uniqueClientIp() }, async (client) => {
      expect((await client.listTools()).tools).toHaveLength(7);
      const search = responseOf<{ results: Array<{ url: string }> }>(await client.callTool({ name: 'tavily_search', arguments: { query: `${marker} range` } }));
      expect(search.results[0].url).toBe(guideUrl);
      for (const name of ['tavily_crawl', 'tavily_map', 'tavily_research', 'tavily_get_research', 'tavily_feedback']) {
        const refused = await client.callTool({ name, arguments: { url: `${site.url}/docs`, input: 'What is MCP?', request_id: 'x' } });
        expect({ name, isError: refused.isError, text: textOf(refused) }).toEqual({
          name,
          isError: true,
          text: '401: Unauthorized: this endpoint requires an API key; keyless mode covers only /search and /extract.',
        });
      }
    });
  });

  /** One POST carrying a JSON-RPC batch of tool calls, as a hostile client sends it (no SDK, no session). */
  async function postBatch(headers: Record<string, string>, calls: Array<{ name: string; arguments: Record<string, unknown> }>) {
    const batch = calls.map((call, index) => ({ jsonrpc: '2.0', id: index + 1, method: 'tools/call', params: call }));
    type Reply = { id: number; result?: { content: Array<{ text: string }>; isError?: boolean; structuredContent?: Record<string, unknown> } };
    const answer = await callGateway<Reply[]>(gateway.baseUrl, 'POST', '/mcp', { headers: { Accept: 'application/json, text/event-stream', ...headers }, body: batch });
    expect({ status: answer.status, body: answer.status === 200 ? 'ok' : answer.body }).toEqual({ status: 200, body: 'ok' });
    expect(answer.body).toHaveLength(calls.length);
    const refused = answer.body.filter((reply) => reply.result?.isError && reply.result.content[0].text.startsWith('429: '));
    return { replies: answer.body, refused };
  }

  it('answers a spent keyless budget with a tool error carrying the plain-language instructions, never an HTTP 429', async () => {
    const headers = { 'X-Service-Access-Mode': 'keyless', 'X-Forwarded-For': uniqueClientIp() };
    // 25 extracts in one POST against a budget of 20 a minute: 20 run, 5 are refused one by one.
    const { replies, refused } = await postBatch(headers, Array.from({ length: 25 }, () => ({ name: 'tavily_extract', arguments: { urls: [`${site.url}/page`] } })));
    expect(refused).toHaveLength(5);
    const served = replies.filter((reply) => !refused.includes(reply));
    for (const reply of served) expect(reply.result?.structuredContent).toMatchObject({ results: [{ url: `${site.url}/page` }] });

    // A client that comes back later still connects and lists its tools; its call gets the instructions.
    await withClient(`${gateway.baseUrl}/mcp`, headers, async (client) => {
      expect((await client.listTools()).tools.length).toBeGreaterThan(0);
      const answer = await client.callTool({ name: 'tavily_search', arguments: { query: marker } });
      expect(answer.isError).toBe(true);
      const keylessError = (answer.structuredContent as { error: { code: string; message: string; next_actions: Array<{ type: string; details: string }> } }).error;
      expect(keylessError.code).toBe('keyless_rate_limited');
      expect(textOf(answer)).toBe(
        [`429: ${keylessError.message}`, 'Next actions:', ...keylessError.next_actions.map((action) => `- ${action.type}: ${action.details}`)].join('\n'),
      );
      expect(textOf(answer)).toMatch(/keyless budget for your address is used up[\s\S]*Authorization: Bearer[\s\S]*- signup: Get an API key[\s\S]*- retry_later: Wait \d+ seconds/);
    });
    // The budget is the address's over HTTP too: the REST twin answers the keyless 429 with the same envelope.
    const next = await callGateway<{ error: { code: string } }>(gateway.baseUrl, 'POST', '/extract', { headers, body: { urls: [`${site.url}/page`] } });
    expect({ status: next.status, code: next.body.error.code }).toEqual({ status: 429, code: 'keyless_rate_limited' });
  });

  it("moves a key's rate-limit counter by one per tool call: 100 searches in one POST", async () => {
    const account = await createTestAccount(gateway.prisma, { plan: 'growth' });
    const { apiKey } = await createTestKey(gateway.prisma, account.id);
    const search = { query: `${marker} song`, search_depth: 'fast' };
    // A dev key may make 100 requests a minute; one is spent over HTTP first, so the batch has room for 99 calls.
    expect((await callGateway(gateway.baseUrl, 'POST', '/search', { apiKey, body: search })).status).toBe(200);
    // The MCP SDK refuses batches of more than 100 messages, so 100 is the largest batch a client can send.
    const { replies, refused } = await postBatch({ Authorization: `Bearer ${apiKey}` }, Array.from({ length: 100 }, () => ({ name: 'tavily_search', arguments: search })));
    expect(refused).toHaveLength(1);
    expect(refused[0].result?.content[0].text).toMatch(/^429: Rate limit exceeded: too many requests for this API key\. Retry after \d+ seconds\.$/);
    expect(replies.filter((reply) => !reply.result?.isError)).toHaveLength(99);
    expect((await callGateway(gateway.baseUrl, 'POST', '/search', { apiKey, body: search })).status).toBe(429);
    // Only the searches that ran were charged: the one over HTTP and the 99 calls.
    const ledger = await gateway.prisma.creditLedger.aggregate({ where: { accountId: account.id, endpoint: 'search' }, _sum: { planCredits: true } });
    expect(ledger._sum.planCredits).toBe(100);
  });
});
