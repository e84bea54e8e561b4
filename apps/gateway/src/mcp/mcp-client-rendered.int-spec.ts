import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type ClientRenderedSite, createTestAccount, createTestKey, PAGE_FOUND, pagesFoundIn, startClientRenderedSite } from '@sift/testing';
import { startTestGateway, TestGateway } from '../testing/gateway-harness';
import { startWorkerProcess, WorkerProcess } from '../testing/worker-process';

type ToolAnswer = Awaited<ReturnType<Client['callTool']>>;

// A page that needs rendering takes about a second in Chromium on a small machine; a crawl here renders a handful.
jest.setTimeout(60_000);

// tavily_crawl and tavily_map, called with the official MCP SDK client over streamable HTTP, on a documentation site
// whose pages, links included, exist only once their scripts have run; a real crawler worker process does the work.
describe('MCP tavily_crawl and tavily_map on a site its scripts build', () => {
  let gateway: TestGateway;
  let crawler: WorkerProcess;
  let site: ClientRenderedSite;
  let client: Client;

  beforeAll(async () => {
    site = await startClientRenderedSite({ rendering: 'client' });
    crawler = await startWorkerProcess('crawler-worker');
    gateway = await startTestGateway({ QUEUE_PREFIX: crawler.queuePrefix, FETCH_ALLOW_CIDRS: '127.0.0.1/32' });
    const account = await createTestAccount(gateway.prisma, { plan: 'growth' });
    const { apiKey } = await createTestKey(gateway.prisma, account.id);
    client = new Client({ name: 'sift-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${gateway.baseUrl}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${apiKey}` } } }));
  }, 120_000);

  afterAll(async () => {
    await client?.close();
    await Promise.all([gateway?.close(), crawler?.stop(), site?.close()]);
  });

  /** A successful call's REST response (its structured content); a tool error fails the test with its text. */
  function responseOf<T>(answer: ToolAnswer): T {
    const text = (answer.content as Array<{ type: string; text: string }>)[0]?.text ?? '';
    expect({ isError: answer.isError ?? false, text: text.slice(0, 300) }).toEqual({ isError: false, text: expect.any(String) });
    return answer.structuredContent as T;
  }

  const pageUrls = () => Object.values(site.pages).map((page) => page.url);

  it('tavily_crawl returns every page with the text its script writes, and not the bot-challenge page it links to', async () => {
    const crawl = responseOf<{ results: Array<{ url: string; raw_content: string }> }>(
      await client.callTool({ name: 'tavily_crawl', arguments: { url: site.url, max_depth: 2 } }),
    );
    expect(pagesFoundIn(site, crawl.results)).toEqual(Object.fromEntries(pageUrls().map((url) => [url, PAGE_FOUND])));
    expect(crawl.results.map((result) => result.url).sort()).toEqual(pageUrls().sort());
  });

  it('tavily_map lists every page URL, found through the links the scripts add', async () => {
    const map = responseOf<{ results: string[] }>(await client.callTool({ name: 'tavily_map', arguments: { url: site.url, max_depth: 2 } }));
    expect(map.results).toEqual(expect.arrayContaining(pageUrls()));
  });
});
