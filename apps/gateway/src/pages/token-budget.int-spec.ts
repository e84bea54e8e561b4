import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { TOKEN_BUDGET_CUT_MARKER } from '@sift/api-contracts';
import { webPageOf } from '@sift/content-extraction';
import { PageRepository } from '@sift/pages';
import { FixtureServer, startFixtureServer } from '@sift/safe-fetch';
import { callGateway, createTestAccount, createTestKey } from '@sift/testing';
import { countTokens } from '../http/token-budget';
import { startTestGateway, TestGateway } from '../testing/gateway-harness';
import { startWorkerProcess, WorkerProcess } from '../testing/worker-process';

interface TokenBudget {
  max_tokens: number;
  returned_tokens: number;
  cut: boolean;
}

interface BudgetedBody {
  results: Array<{ url: string; content?: string; raw_content?: string }>;
  token_budget?: TokenBudget;
}

jest.setTimeout(60_000);

/** The tokens of a response's text: every result's content and raw_content, by the gateway's tokenizer. */
function textTokens(body: BudgetedBody): number {
  return body.results.reduce((sum, result) => sum + countTokens(result.content ?? '') + countTokens(result.raw_content ?? ''), 0);
}

// max_tokens over HTTP and MCP: the real gateway, a real extractor worker, pages in the store and on a loopback site.
describe('token budgets (max_tokens)', () => {
  let gateway: TestGateway;
  let extractor: WorkerProcess;
  let crawler: WorkerProcess;
  let site: FixtureServer;
  let apiKey: string;
  const marker = `plovent${randomBytes(3).toString('hex')}`;
  const storedUrls = [0, 1, 2].map((index) => `https://budget-${marker}-${index}.example/page`);
  // Long pages: hundreds of distinct sentences, far over any budget the tests set and over the MCP default.
  const sentences = (topic: string, count: number) =>
    Array.from({ length: count }, (_, index) => `The ${marker} ${topic} report number ${index} describes the river and the valley below it.`).join(' ');

  beforeAll(async () => {
    const longArticle = `<html><head><title>Long page</title></head><body><article><h1>Long page</h1>${Array.from(
      { length: 60 },
      (_, index) => `<p>${sentences(`section${index}`, 20)}</p>`,
    ).join('')}</article></body></html>`;
    site = await startFixtureServer({
      '/long': (_request: IncomingMessage, response: ServerResponse) => response.writeHead(200, { 'content-type': 'text/html' }).end(longArticle),
    });
    extractor = await startWorkerProcess('extractor-worker');
    crawler = await startWorkerProcess('crawler-worker', { QUEUE_PREFIX: extractor.queuePrefix });
    gateway = await startTestGateway({ QUEUE_PREFIX: extractor.queuePrefix, FETCH_ALLOW_CIDRS: '127.0.0.1/32' });
    const pages = new PageRepository(gateway.prisma);
    for (const [index, url] of storedUrls.entries()) {
      await pages.save('operator', webPageOf({ finalUrl: url, title: `${marker} flood report ${index}`, text: sentences('flood', 300), language: 'en' }), 'import');
    }
    const account = await createTestAccount(gateway.prisma, { plan: 'growth' });
    apiKey = (await createTestKey(gateway.prisma, account.id)).apiKey;
  }, 120_000);

  afterAll(async () => {
    await gateway?.prisma.document.deleteMany({ where: { url: { in: storedUrls } } });
    await Promise.all([gateway?.close(), extractor?.stop(), crawler?.stop(), site?.close()]);
  });

  const post = (path: string, body: Record<string, unknown>) => callGateway<BudgetedBody>(gateway.baseUrl, 'POST', path, { apiKey, body });

  it('search: cuts content and raw_content to fit, earlier results keeping more, and reports the count', async () => {
    const query = { query: `${marker} flood report river`, include_raw_content: 'text', max_results: 3 };
    const full = await post('/search', query);
    expect(full.status).toBe(200);
    expect(full.body.token_budget).toBeUndefined();
    expect(full.body.results.map((result) => result.url).sort()).toEqual([...storedUrls].sort());
    expect(full.body.results[0].raw_content).toBe(sentences('flood', 300));

    const budgeted = await post('/search', { ...query, max_tokens: 3_000 });
    expect(budgeted.status).toBe(200);
    expect(budgeted.body.results.map((result) => result.url)).toEqual(full.body.results.map((result) => result.url));
    expect(budgeted.body.token_budget).toEqual({ max_tokens: 3_000, returned_tokens: textTokens(budgeted.body), cut: true });
    expect(textTokens(budgeted.body)).toBeLessThanOrEqual(3_000);
    const page = sentences('flood', 300);
    const keptTokens = budgeted.body.results.map((result) => {
      expect(result.raw_content?.endsWith(TOKEN_BUDGET_CUT_MARKER)).toBe(true);
      // What is kept is the start of the page, ending at a sentence's end or at least at a word's.
      const kept = result.raw_content!.slice(0, -TOKEN_BUDGET_CUT_MARKER.length);
      expect(page.startsWith(kept)).toBe(true);
      expect(page[kept.length]).toBe(' ');
      return countTokens(result.content ?? '') + countTokens(result.raw_content!);
    });
    expect(budgeted.body.results[0].raw_content!.slice(0, -TOKEN_BUDGET_CUT_MARKER.length).endsWith('below it.')).toBe(true);
    expect(keptTokens[0]).toBeGreaterThan(keptTokens[1]);
    expect(keptTokens[1]).toBeGreaterThan(keptTokens[2]);
  });

  it('extract: cuts raw_content to fit max_tokens; without it the page comes whole and no token_budget', async () => {
    const full = await post('/extract', { urls: [`${site.url}/long`] });
    expect(full.status).toBe(200);
    expect(full.body.token_budget).toBeUndefined();
    expect(countTokens(full.body.results[0].raw_content!)).toBeGreaterThan(20_000);

    const budgeted = await post('/extract', { urls: [`${site.url}/long`], max_tokens: 700 });
    expect(budgeted.status).toBe(200);
    const [page] = budgeted.body.results;
    expect(page.raw_content!.endsWith(TOKEN_BUDGET_CUT_MARKER)).toBe(true);
    expect(full.body.results[0].raw_content!.startsWith(page.raw_content!.slice(0, -TOKEN_BUDGET_CUT_MARKER.length))).toBe(true);
    expect(budgeted.body.token_budget).toEqual({ max_tokens: 700, returned_tokens: countTokens(page.raw_content!), cut: true });
    expect(budgeted.body.token_budget!.returned_tokens).toBeLessThanOrEqual(700);
    expect(budgeted.body.token_budget!.returned_tokens).toBeGreaterThan(600);
  });

  it('crawl: cuts raw_content to fit max_tokens and reports the count', async () => {
    const crawled = await post('/crawl', { url: `${site.url}/long`, max_depth: 1, limit: 1, max_tokens: 900 });
    expect(crawled.status).toBe(200);
    expect(crawled.body.results).toHaveLength(1);
    expect(crawled.body.results[0].raw_content!.endsWith(TOKEN_BUDGET_CUT_MARKER)).toBe(true);
    expect(crawled.body.token_budget).toEqual({ max_tokens: 900, returned_tokens: textTokens(crawled.body), cut: true });
    expect(textTokens(crawled.body)).toBeLessThanOrEqual(900);
  });

  it('refuses a max_tokens out of bounds with 400', async () => {
    for (const maxTokens of [0, 10, 1.5, '500', null]) {
      expect((await post('/extract', { urls: [`${site.url}/long`], max_tokens: maxTokens })).status).toBe(400);
    }
  });

  it('MCP: the search, extract and crawl tools default to 8000 tokens; a call may set its own budget', async () => {
    const client = new Client({ name: 'sift-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${gateway.baseUrl}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${apiKey}` } } }));
    try {
      const { tools } = await client.listTools();
      for (const name of ['tavily_search', 'tavily_extract', 'tavily_crawl']) {
        expect(tools.find((tool) => tool.name === name)?.inputSchema.properties?.max_tokens).toMatchObject({ type: 'integer', default: 8_000 });
      }
      const defaulted = (await client.callTool({ name: 'tavily_extract', arguments: { urls: [`${site.url}/long`] } })).structuredContent as unknown as BudgetedBody;
      expect(defaulted.token_budget).toEqual({ max_tokens: 8_000, returned_tokens: textTokens(defaulted), cut: true });
      expect(textTokens(defaulted)).toBeLessThanOrEqual(8_000);
      expect(defaulted.results[0].raw_content!.endsWith(TOKEN_BUDGET_CUT_MARKER)).toBe(true);

      const own = (await client.callTool({ name: 'tavily_search', arguments: { query: `${marker} flood report`, include_raw_content: true, max_tokens: 400 } }))
        .structuredContent as unknown as BudgetedBody;
      expect(own.token_budget).toEqual({ max_tokens: 400, returned_tokens: textTokens(own), cut: true });
    } finally {
      await client.close();
    }
  });
});
