import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { FixtureServer, startFixtureServer } from '@sift/safe-fetch';
import { webPageOf } from '@sift/content-extraction';
import { PageRepository } from '@sift/search-index';
import { callGateway, createTestAccount, createTestKey } from '@sift/testing';
import { randomBytes } from 'node:crypto';
import { startTestGateway, TestGateway, uniqueClientIp } from '../testing/gateway-harness';
import { startWorkerProcess, WorkerProcess } from '../testing/worker-process';

// The remote tool server, driven by the official MCP SDK client over streamable HTTP.
describe('MCP endpoint /mcp', () => {
  let gateway: TestGateway;
  let worker: WorkerProcess;
  let site: FixtureServer;
  const marker = `zebrafinch${randomBytes(3).toString('hex')}`;

  beforeAll(async () => {
    site = await startFixtureServer({
      '/page': (_request, response) =>
        response
          .writeHead(200, { 'content-type': 'text/html' })
          .end(`<html><head><title>MCP page</title></head><body><article><h1>MCP page</h1><p>${'Tools for agents over MCP. '.repeat(20)}</p></article></body></html>`),
    });
    worker = await startWorkerProcess('extractor-worker');
    // An MCP session is several POSTs (initialize, initialized, tools/list): give keyless callers room for one.
    gateway = await startTestGateway({ QUEUE_PREFIX: worker.queuePrefix, FETCH_ALLOW_CIDRS: '127.0.0.1/32', KEYLESS_REQUESTS_PER_MINUTE: '20' });
    const guideUrl = `https://docs-${marker}.example/guide`;
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
    await Promise.all([gateway?.close(), worker?.stop(), site?.close()]);
  });

  async function connect(headers: Record<string, string>): Promise<Client> {
    const client = new Client({ name: 'sift-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${gateway.baseUrl}/mcp`), { requestInit: { headers } }));
    return client;
  }

  function textOf(result: Awaited<ReturnType<Client['callTool']>>): string {
    return (result.content as Array<{ type: string; text: string }>)[0].text;
  }

  it('lists the search and extract tools and runs them with an API key, charging the key and logging each call', async () => {
    const account = await createTestAccount(gateway.prisma, { plan: 'growth' });
    const { apiKey } = await createTestKey(gateway.prisma, account.id);
    const client = await connect({ Authorization: `Bearer ${apiKey}` });
    let searchRequestId = '';
    let extractRequestId = '';
    try {
      const tools = await client.listTools();
      expect(tools.tools.map((tool) => tool.name).sort()).toEqual(['extract', 'search']);

      const search = await client.callTool({ name: 'search', arguments: { query: `${marker} nesting`, search_depth: 'fast' } });
      expect(search.isError).toBeFalsy();
      const searchBody = JSON.parse(textOf(search)) as { results: Array<{ url: string }>; request_id: string };
      expect(searchBody.results[0].url).toBe(`https://docs-${marker}.example/guide`);
      searchRequestId = searchBody.request_id;

      const extract = await client.callTool({ name: 'extract', arguments: { urls: [`${site.url}/page`] } });
      const extractBody = JSON.parse(textOf(extract)) as { results: Array<{ raw_content: string }>; request_id: string };
      expect(extractBody.results[0].raw_content).toContain('Tools for agents over MCP.');
      extractRequestId = extractBody.request_id;

      const invalid = await client.callTool({ name: 'search', arguments: { query: 'x', search_depth: 'fast', safe_search: true } });
      expect(invalid.isError).toBe(true);
    } finally {
      await client.close();
    }
    const ledger = await gateway.prisma.creditLedger.aggregate({ where: { accountId: account.id, endpoint: 'search' }, _sum: { planCredits: true } });
    expect(ledger._sum.planCredits).toBe(1);

    // Every tool call is its own request in the key's log, the billed search with its credit.
    const logs = await callGateway<{ logs: Array<{ request_id: string; endpoint: string; depth: string | null; credits: number }> }>(
      gateway.baseUrl,
      'POST',
      '/logs',
      { apiKey, body: {} },
    );
    expect(logs.status).toBe(200);
    const entry = (requestId: string) => logs.body.logs.find((log) => log.request_id === requestId);
    expect(entry(searchRequestId)).toMatchObject({ endpoint: 'search', depth: 'fast', credits: 1 });
    expect(entry(extractRequestId)).toMatchObject({ endpoint: 'extract', depth: 'basic' });
    // The refused search (safe_search is not offered at fast depth) is logged as well, charged nothing.
    expect(logs.body.logs.filter((log) => log.endpoint === 'search').map((log) => log.credits).sort()).toEqual([0, 1]);
  });

  it('asks a client without a key to sign in, and serves a client that sends the keyless header', async () => {
    await expect(connect({})).rejects.toThrow(/401|Unauthorized/);
    const client = await connect({ 'X-Tavily-Access-Mode': 'keyless', 'X-Forwarded-For': uniqueClientIp() });
    try {
      const tools = await client.listTools();
      expect(tools.tools).toHaveLength(2);
    } finally {
      await client.close();
    }
  });
  /** One POST carrying a JSON-RPC batch of tool calls, as a hostile client sends it (no SDK, no session). */
  async function postBatch(headers: Record<string, string>, calls: Array<{ name: string; arguments: Record<string, unknown> }>) {
    const batch = calls.map((call, index) => ({ jsonrpc: '2.0', id: index + 1, method: 'tools/call', params: call }));
    const answer = await callGateway<Array<{ id: number; result?: { content: Array<{ text: string }>; isError?: boolean } }>>(
      gateway.baseUrl,
      'POST',
      '/mcp',
      { headers: { Accept: 'application/json, text/event-stream', ...headers }, body: batch },
    );
    expect({ status: answer.status, body: answer.status === 200 ? 'ok' : answer.body }).toEqual({ status: 200, body: 'ok' });
    expect(answer.body).toHaveLength(calls.length);
    const refused = answer.body.filter((reply) => reply.result?.isError && reply.result.content[0].text.startsWith('429: '));
    return { replies: answer.body, refused };
  }

  it('counts every tool call of a keyless batch against the keyless budget', async () => {
    const clientIp = uniqueClientIp();
    const headers = { 'X-Tavily-Access-Mode': 'keyless', 'X-Forwarded-For': clientIp };
    // 30 extracts in one POST, the budget is 20 a minute: the POST and 19 more calls fit, 10 calls do not.
    const { replies, refused } = await postBatch(headers, Array.from({ length: 30 }, () => ({ name: 'extract', arguments: { urls: [`${site.url}/page`] } })));
    expect(refused).toHaveLength(10);
    expect(refused[0].result?.content[0].text).toMatch(/^429: The free keyless budget for your address is used up/);
    const served = replies.filter((reply) => !refused.includes(reply));
    for (const reply of served) expect(JSON.parse(reply.result?.content[0].text ?? '{}')).toMatchObject({ results: [{ url: `${site.url}/page` }] });
    // The batch spent the address's budget: the next keyless request over HTTP is refused too.
    const next = await callGateway(gateway.baseUrl, 'POST', '/extract', { headers, body: { urls: [`${site.url}/page`] } });
    expect(next.status).toBe(429);
  }, 60_000);

  it("moves a key's rate-limit counter by one per tool call: 100 searches in one POST", async () => {
    const account = await createTestAccount(gateway.prisma, { plan: 'growth' });
    const { apiKey } = await createTestKey(gateway.prisma, account.id);
    const search = { query: `${marker} song`, search_depth: 'fast' };
    // A dev key may make 100 requests a minute; one is spent over HTTP first, so the batch has room for 99 calls.
    expect((await callGateway(gateway.baseUrl, 'POST', '/search', { apiKey, body: search })).status).toBe(200);
    // The MCP SDK refuses batches of more than 100 messages, so 100 is the largest batch a client can send.
    const { replies, refused } = await postBatch({ Authorization: `Bearer ${apiKey}` }, Array.from({ length: 100 }, () => ({ name: 'search', arguments: search })));
    expect(refused).toHaveLength(1);
    expect(refused[0].result?.content[0].text).toMatch(/^429: Rate limit exceeded: too many requests for this API key\. Retry after \d+ seconds\.$/);
    expect(replies.filter((reply) => !reply.result?.isError)).toHaveLength(99);
    expect((await callGateway(gateway.baseUrl, 'POST', '/search', { apiKey, body: search })).status).toBe(429);
    // Only the searches that ran were charged: the one over HTTP and the 99 calls.
    const ledger = await gateway.prisma.creditLedger.aggregate({ where: { accountId: account.id, endpoint: 'search' }, _sum: { planCredits: true } });
    expect(ledger._sum.planCredits).toBe(100);
  }, 60_000);
});
