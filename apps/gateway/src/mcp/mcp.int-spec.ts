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
});
