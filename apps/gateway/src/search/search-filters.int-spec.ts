import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importJsonl, PageRepository } from '@sift/pages';
import { FixtureServer, startFixtureServer } from '@sift/safe-fetch';
import { callGateway, createTestAccount, createTestKey } from '@sift/testing';
import { RequestLogWriter } from '../request-log/request-log-writer.service';
import { startTestGateway, TestGateway } from '../testing/gateway-harness';
import { startWorkerProcess, WorkerProcess } from '../testing/worker-process';

interface SearchBody {
  results: Array<{ url: string; content: string; published_date?: string; published_date_source?: string }>;
  warnings?: string[];
  auto_parameters?: Record<string, unknown>;
  request_id: string;
}

interface ErrorBody {
  detail: { error: string };
}

const DAY_MS = 24 * 60 * 60 * 1000;

// Filters that explain themselves and news on the operator's own corpus, over HTTP: documents imported as
// `admin index import` imports them (importJsonl), SearXNG on loopback, and a real extractor worker whose fetches fail.
describe('POST /search: warnings, dates and news of imported documents', () => {
  let gateway: TestGateway;
  let worker: WorkerProcess;
  let site: FixtureServer;
  let searxng: FixtureServer;
  let apiKey: string;
  let directory: string;
  const marker = `zentrovak${randomUUID().replace(/-/g, '').slice(0, 8)}`;
  const unreachableMarker = `quillomet${randomUUID().replace(/-/g, '').slice(0, 8)}`;
  const suffix = randomUUID().slice(0, 8);
  const host = (name: string) => `${name}-${suffix}.example`;
  const url = {
    dated: `https://${host('daily')}/launch`,
    datedNotNews: `https://${host('manual')}/launch-notes`,
    flaggedNews: `https://${host('wire')}/bulletin`,
    undated: `https://${host('wiki')}/launch`,
    oldUndated: `https://${host('wiki')}/history`,
    old: `https://${host('daily')}/archive`,
  };
  const text = (topic: string) =>
    `The ${marker} rocket ${topic}. Engineers describe the ${marker} rocket launch, its fuel, its crew and the weather ` +
    'on the pad, and the agency answers questions about the next launch window and the rocket engines.';

  beforeAll(async () => {
    site = await startFixtureServer({
      '/gone': (_request, response) => response.writeHead(404, { 'content-type': 'text/html' }).end('<p>gone</p>'),
      '/broken': (_request, response) => response.writeHead(500, { 'content-type': 'text/html' }).end('<p>broken</p>'),
    });
    searxng = await startFixtureServer({
      '/search': (request, response) => {
        const query = new URL(request.url ?? '/', 'http://searxng').searchParams.get('q') ?? '';
        const results = query.includes(unreachableMarker)
          ? [
              { url: `${site.url}/gone`, title: `${unreachableMarker} gone`, content: `Snippet of the ${unreachableMarker} page that is gone.`, score: 2, engine: 'fixture' },
              { url: `${site.url}/broken`, title: `${unreachableMarker} broken`, content: `Snippet of the ${unreachableMarker} page that is broken.`, score: 1, engine: 'fixture' },
            ]
          : [];
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ query, number_of_results: results.length, results }));
      },
    });
    worker = await startWorkerProcess('extractor-worker');
    gateway = await startTestGateway({
      QUEUE_PREFIX: worker.queuePrefix,
      FETCH_ALLOW_CIDRS: '127.0.0.1/32',
      SEARXNG_URL: searxng.url,
      SEARCH_BUDGET_BASIC_MS: '20000',
    });
    const recent = (days: number) => new Date(Date.now() - days * DAY_MS).toISOString();
    const lines = [
      { url: url.dated, title: `${marker} rocket launch today`, text: text('launched this morning'), published_date: recent(2) },
      { url: url.datedNotNews, title: `${marker} rocket launch notes`, text: text('has launch notes'), published_date: recent(1), news: false },
      { url: url.flaggedNews, title: `${marker} rocket bulletin`, text: text('is in the bulletin'), topic: 'news' },
      { url: url.undated, title: `${marker} rocket launch wiki`, text: text('is described in the wiki') },
      { url: url.oldUndated, title: `${marker} rocket launch history`, text: text('has a long history') },
      { url: url.old, title: `${marker} rocket launch of 2019`, text: text('launched in 2019'), published_date: '2019-05-01' },
    ];
    directory = mkdtempSync(join(tmpdir(), 'sift-search-filters-'));
    const file = join(directory, 'documents.jsonl');
    writeFileSync(file, lines.map((line) => JSON.stringify(line)).join('\n'));
    expect(await importJsonl(file, { pages: new PageRepository(gateway.prisma) })).toEqual({ imported: lines.length, skipped: 0 });
    // An undated page Sift fetched long ago: only include_undated true keeps it under a recent date filter.
    await gateway.prisma.document.updateMany({ where: { url: url.oldUndated }, data: { fetchedAt: new Date('2019-06-01T00:00:00Z') } });
    const account = await createTestAccount(gateway.prisma, { plan: 'growth' });
    apiKey = (await createTestKey(gateway.prisma, account.id)).apiKey;
  }, 120_000);

  afterAll(async () => {
    rmSync(directory, { recursive: true, force: true });
    await gateway?.prisma.document.deleteMany({ where: { url: { in: Object.values(url) } } });
    await Promise.all([gateway?.close(), worker?.stop(), site?.close(), searxng?.close()]);
  });

  const search = (body: Record<string, unknown>) =>
    callGateway<SearchBody & ErrorBody>(gateway.baseUrl, 'POST', '/search', { apiKey, body: { query: `${marker} rocket launch`, ...body } });
  const urls = (body: SearchBody) => body.results.map((result) => result.url).sort();

  it('finds imported documents with topic news: dated ones and those the import marks, with where the date came from', async () => {
    const { status, body } = await search({ topic: 'news' });
    expect(status).toBe(200);
    expect(urls(body)).toEqual([url.dated, url.flaggedNews, url.old].sort());
    const dated = body.results.find((result) => result.url === url.dated);
    expect(dated).toMatchObject({ published_date: expect.any(String), published_date_source: 'import' });
  });

  it('applies date filters to imported dates, and says what it did with undated pages', async () => {
    const { body } = await search({ time_range: 'week' });
    // Undated pages are judged by when Sift stored them (now), as before; the one fetched in 2019 is out.
    expect(urls(body)).toEqual([url.dated, url.datedNotNews, url.flaggedNews, url.undated].sort());
    expect(body.warnings).toEqual([expect.stringMatching(/^2 results state no publish date and were kept by time_range.*include_undated: false/)]);

    const datedOnly = await search({ time_range: 'week', include_undated: false });
    expect(urls(datedOnly.body)).toEqual([url.dated, url.datedNotNews].sort());
    expect(datedOnly.body.warnings).toBeUndefined();

    const everyUndated = await search({ start_date: '2020-01-01', include_undated: true });
    expect(urls(everyUndated.body)).toEqual([url.dated, url.datedNotNews, url.flaggedNews, url.undated, url.oldUndated].sort());
  });

  it('warns that start_date leaves out undated web results when the caller did not choose', async () => {
    const { body } = await search({ start_date: '2020-01-01' });
    expect(urls(body)).toEqual([url.dated, url.datedNotNews, url.flaggedNews, url.undated].sort());
    expect(body.warnings).toEqual([
      expect.stringMatching(/^2 results state no publish date and were kept by start_date/),
      'Web results that state no publish date were left out by start_date/end_date. Send include_undated: true to keep them.',
    ]);
  });

  it('answers 400 naming the entries when every domain is invalid, and drops invalid ones with a warning otherwise', async () => {
    const allInvalid = await search({ include_domains: ['edu', 'gov'] });
    expect(allInvalid.status).toBe(400);
    expect(allInvalid.body.detail.error).toBe("All domains in include_domains are invalid: ['edu', 'gov']. Domains must have a valid suffix (e.g., 'example.com' instead of 'example').");
    const excluded = await search({ exclude_domains: ['[]'] });
    expect(excluded.status).toBe(400);
    expect(excluded.body.detail.error).toMatch(/^All domains in exclude_domains are invalid: \['\[\]'\]/);

    const mixed = await search({ include_domains: ['edu', `https://www.${host('daily')}/`] });
    expect(mixed.status).toBe(200);
    expect(urls(mixed.body)).toEqual([url.dated, url.old].sort());
    expect(mixed.body.warnings).toEqual(["include_domains: 1 invalid entry was dropped: ['edu']; searched with the other 1. Domains must have a valid suffix (e.g., 'example.com' instead of 'example')."]);
  });

  it('says what auto_parameters chose and why, and its news search finds the dated imports', async () => {
    const { body } = await callGateway<SearchBody>(gateway.baseUrl, 'POST', '/search', {
      apiKey,
      body: { query: `latest ${marker} rocket launch`, auto_parameters: true, search_depth: 'basic' },
    });
    expect(body.auto_parameters).toEqual({ topic: 'news', search_depth: 'basic' });
    expect(body.warnings).toEqual(['auto_parameters set topic to news (the query says "latest"); send a field explicitly to override it.']);
    expect(urls(body)).toEqual([url.dated, url.flaggedNews, url.old].sort());
  });

  it('falls back to snippets when every page fetch fails, naming each failure code, and logs them', async () => {
    const { status, body } = await callGateway<SearchBody>(gateway.baseUrl, 'POST', '/search', { apiKey, body: { query: `${unreachableMarker} pages` } });
    expect(status).toBe(200);
    expect(body.results.map((result) => result.url)).toEqual([`${site.url}/gone`, `${site.url}/broken`]);
    expect(body.warnings).toEqual([
      `search_depth basic fell back to the search engine's snippets: every page fetch failed (${site.url}/gone: not_found, ${site.url}/broken: server_error). 1 of these failures may pass if retried.`,
    ]);
    await gateway.app.get(RequestLogWriter).flush();
    const logged = await gateway.prisma.requestLog.findUnique({ where: { requestId: body.request_id } });
    expect(logged?.detail).toMatchObject({
      fetch_failures: 2,
      fetch_failed: expect.arrayContaining([
        { url: `${site.url}/gone`, error: 'HTTP 404', error_code: 'not_found', retryable: false },
        { url: `${site.url}/broken`, error: 'HTTP 500', error_code: 'server_error', retryable: true },
      ]),
    });
  });
});
