import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FixtureRoutes, FixtureServer, startFixtureServer } from '@sift/safe-fetch';
import { importJsonl, PageRepository } from '@sift/pages';
import { callGateway, createTestAccount, createTestKey, startLoopbackSearxng } from '@sift/testing';
import { startTestGateway, TestGateway } from '../testing/gateway-harness';
import { startWorkerProcess, WorkerProcess } from '../testing/worker-process';

interface ExtractBody {
  results: Array<{ url: string; raw_content: string; images?: string[] }>;
  failed_results: Array<{ url: string; error: string }>;
}

// The site's page: an article with an image and a table, and a paragraph only a browser sees (a script writes it).
const served = `<!doctype html><html lang="en"><head><title>Harbour report</title></head><body><article><h1>Harbour report</h1>
<p>${'The site itself describes the harbour, its tonnage and its cranes in this paragraph. '.repeat(4)}</p>
<p><img src="/photo.jpg" alt="The harbour"> The table lists the berths.</p>
<table><tr><th>Berth</th><th>Depth</th></tr><tr><td>North</td><td>14</td></tr></table>
<div id="late"></div></article>
<script>document.getElementById('late').innerHTML = '<p>Written by the script in the browser: the crane schedule.</p>';</script>
</body></html>`;

// A stored copy answers only what it holds. The operator imports the site's URLs as bare text
// (`admin index import`'s importJsonl); an extraction that needs images, markdown from HTML or a rendering fetches
// the page (and renders it), and only a basic text extraction without images is answered by the import.
describe('POST /extract of a URL the operator imported as text', () => {
  const importedText = `The operator's imported text ${randomUUID()} about the harbour.`;
  const paths = ['/images', '/markdown', '/advanced', '/text', '/search-text', '/search-markdown'];
  // A word only SearXNG's answer holds: the search's candidates are its results, not the local index's.
  const queryWord = `quorvex${randomUUID().replace(/[^a-f]/g, '').slice(0, 6)}`;
  let gateway: TestGateway;
  let worker: WorkerProcess;
  let site: FixtureServer;
  let searxng: FixtureServer;
  let directory: string;
  let apiKey: string;

  beforeAll(async () => {
    const page: FixtureRoutes[string] = (_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end(served);
    site = await startFixtureServer(Object.fromEntries(paths.map((path) => [path, page])));
    searxng = await startLoopbackSearxng(() =>
      ['/search-text', '/search-markdown'].map((path) => ({ url: `${site.url}${path}`, title: `The ${queryWord} harbour`, content: `A ${queryWord} snippet.` })),
    );
    worker = await startWorkerProcess('extractor-worker');
    // The markdown search must get its page: a budget no loaded machine misses (the budget has its own tests).
    gateway = await startTestGateway({ QUEUE_PREFIX: worker.queuePrefix, FETCH_ALLOW_CIDRS: '127.0.0.1/32', SEARXNG_URL: searxng.url, SEARCH_BUDGET_BASIC_MS: '20000' });
    directory = mkdtempSync(join(tmpdir(), 'sift-stored-copy-'));
    const file = join(directory, 'pages.jsonl');
    writeFileSync(file, paths.map((path) => JSON.stringify({ url: `${site.url}${path}`, title: 'Harbour report', text: importedText, language: 'en' })).join('\n'));
    expect(await importJsonl(file, { pages: new PageRepository(gateway.prisma) })).toEqual({ imported: paths.length, skipped: 0 });
    const account = await createTestAccount(gateway.prisma, { plan: 'growth' });
    apiKey = (await createTestKey(gateway.prisma, account.id)).apiKey;
  }, 120_000);

  afterAll(async () => {
    await gateway?.prisma.document.deleteMany({ where: { url: { startsWith: site.url } } });
    rmSync(directory, { recursive: true, force: true });
    await Promise.all([gateway?.close(), worker?.stop(), site?.close(), searxng?.close()]);
  });

  const requestsFor = (path: string) => site.requests.filter((request) => request === `GET ${path}`).length;
  const extract = async (path: string, options: Record<string, unknown>) => {
    const { status, body } = await callGateway<ExtractBody>(gateway.baseUrl, 'POST', '/extract', { apiKey, body: { urls: [`${site.url}${path}`], ...options } });
    expect(status).toBe(200);
    expect(body.failed_results).toEqual([]);
    expect(body.results).toHaveLength(1);
    return body.results[0];
  };

  it('fetches the page for its images', async () => {
    const result = await extract('/images', { include_images: true, format: 'text' });
    expect(requestsFor('/images')).toBeGreaterThanOrEqual(1);
    expect(result.images).toEqual([`${site.url}/photo.jpg`]);
    expect(result.raw_content).toContain('The site itself describes the harbour');
  });

  it('fetches the page for markdown made from its HTML', async () => {
    const result = await extract('/markdown', { format: 'markdown' });
    expect(requestsFor('/markdown')).toBeGreaterThanOrEqual(1);
    expect(result.raw_content).toMatch(/\|\s*Berth\s*\|\s*Depth\s*\|/);
    expect(result.raw_content).not.toContain(importedText);
  });

  it('fetches and renders the page for an advanced extraction', async () => {
    const result = await extract('/advanced', { extract_depth: 'advanced', format: 'text' });
    // One request from the HTTP fetch, one from the browser's navigation.
    expect(requestsFor('/advanced')).toBeGreaterThanOrEqual(2);
    expect(result.raw_content).toContain('Written by the script in the browser');
  });

  it('answers a basic text extraction without images from the imported text, fetching nothing', async () => {
    const result = await extract('/text', { format: 'text' });
    expect(result.raw_content).toBe(importedText);
    expect(requestsFor('/text')).toBe(0);
  });

  it("a search's text raw content comes from the imported text; its markdown raw content fetches the page", async () => {
    const search = async (format: 'text' | 'markdown') => {
      const { status, body } = await callGateway<{ results: Array<{ url: string; raw_content: string | null }> }>(gateway.baseUrl, 'POST', '/search', {
        apiKey,
        body: { query: queryWord, include_raw_content: format },
      });
      expect(status).toBe(200);
      return body.results;
    };
    const asText = (await search('text')).find((result) => result.url === `${site.url}/search-text`);
    expect(asText?.raw_content).toBe(importedText);
    expect(requestsFor('/search-text')).toBe(0);

    const asMarkdown = (await search('markdown')).find((result) => result.url === `${site.url}/search-markdown`);
    expect(requestsFor('/search-markdown')).toBeGreaterThanOrEqual(1);
    expect(asMarkdown?.raw_content).toMatch(/\|\s*Berth\s*\|\s*Depth\s*\|/);
  });
});
