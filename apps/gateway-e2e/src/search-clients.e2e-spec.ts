import { randomUUID } from 'node:crypto';
import { TavilySearch } from '@langchain/tavily';
import { tavily } from '@tavily/core';
import { LoopbackServer, startLoopbackServer } from './loopback-server';
import { SiftStack, startSiftStack } from './sift-stack';

// The whole stack runs in child processes beside the rest of the suite on two cores; a run that loses a race for
// CPU is retried once, and the first failure is still printed.
jest.retryTimes(1, { logErrorsBeforeRetry: true });

// The official clients, unmodified, searching through Sift started by `npm start`. SearXNG is the outside world
// here (a loopback server speaking its format=json); the pages it lists are fetched by Sift's extractor worker.
describe('search through the official clients against Sift (npm start)', () => {
  let stack: SiftStack;
  let site: LoopbackServer;
  let searxng: LoopbackServer;
  const marker = `vexbrill${randomUUID().replace(/-/g, '').slice(0, 8)}`;
  const page = (title: string, sentence: string) =>
    `<!doctype html><html lang="en"><head><title>${title}</title></head><body><article><h1>${title}</h1><p>${sentence}</p>` +
    `<p>${'A paragraph that pads the article to a realistic length for the extractor. '.repeat(5)}</p>` +
    `<img src="/photo.jpg" alt="The ${marker} bridge at night"></article></body></html>`;

  beforeAll(async () => {
    site = await startLoopbackServer({
      '/bridge': (_request, response) =>
        response.writeHead(200, { 'content-type': 'text/html' }).end(page(`${marker} bridge`, `The ${marker} bridge spans 840 metres across the bay.`)),
      '/tunnel': (_request, response) =>
        response.writeHead(200, { 'content-type': 'text/html' }).end(page(`${marker} tunnel`, `The ${marker} tunnel opened after the ${marker} bridge.`)),
    });
    searxng = await startLoopbackServer({
      '/search': (request, response) => {
        const query = new URL(request.url ?? '/', 'http://searxng').searchParams.get('q') ?? '';
        const results = query.includes(marker)
          ? [
              { url: `${site.url}/bridge`, title: `${marker} bridge`, content: 'Bridge snippet.', engine: 'bing', engines: ['bing'], score: 2, category: 'general', publishedDate: null },
              { url: `${site.url}/tunnel`, title: `${marker} tunnel`, content: 'Tunnel snippet.', engine: 'bing', engines: ['bing'], score: 1, category: 'general', publishedDate: null },
            ]
          : [];
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ query, number_of_results: results.length, results, answers: [], suggestions: [] }));
      },
    });
    stack = await startSiftStack({ SEARXNG_URL: searxng.url });
  }, 120_000);

  afterAll(async () => {
    await Promise.all([stack?.stop(), site?.close(), searxng?.close()]);
  });

  it('@tavily/core search() returns fetched, scored results, images, an answer and usage', async () => {
    const client = tavily({ apiKey: stack.createKey('growth'), apiBaseURL: stack.baseUrl });
    const response = await client.search(`${marker} bridge spans`, { includeAnswer: true, includeImages: true, includeUsage: true, maxResults: 5 });
    // The e2e database keeps pages earlier runs stored (the local index finds them too); look at this run's site.
    const ours = response.results.filter((result) => result.url.startsWith(site.url));
    expect(ours.map((result) => result.url)).toEqual([`${site.url}/bridge`, `${site.url}/tunnel`]);
    expect(ours[0].content).toContain('840 metres');
    expect(ours[0].id).toMatch(/^[0-9a-f-]{36}$/);
    expect(ours[0].score).toBeGreaterThan(0);
    expect(response.images).toContainEqual({ url: `${site.url}/photo.jpg`, description: undefined });
    expect(response.answer).toContain('840 metres');
    expect(response.usage).toEqual({ credits: 1 });
    expect(response.requestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('@tavily/core search() works keyless', async () => {
    const keyless = tavily({ apiBaseURL: stack.baseUrl } as Parameters<typeof tavily>[0]);
    const response = await keyless.search(`${marker} tunnel`, { searchDepth: 'fast' });
    expect(response.results.map((result) => result.url)).toContain(`${site.url}/tunnel`);
  });

  it('@langchain/tavily TavilySearch returns the raw search response', async () => {
    const tool = new TavilySearch({ tavilyApiKey: stack.createKey('growth'), apiBaseUrl: stack.baseUrl, maxResults: 3 });
    const output = (await tool.invoke({ query: `${marker} bridge length` })) as { results: Array<{ url: string; content: string }>; error?: string };
    // The tool turns any failure into { error }; surface it rather than a TypeError.
    expect(output.error).toBeUndefined();
    expect(output.results.map((result) => result.url)).toContain(`${site.url}/bridge`);
    expect(output.results.find((result) => result.url === `${site.url}/bridge`)?.content).toContain('840 metres');
  });
});
