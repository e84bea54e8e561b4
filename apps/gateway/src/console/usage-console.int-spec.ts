import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { chromium, type Browser, type Page } from 'playwright-core';
import { callGateway, createTestAccount, createTestKey, type TestKey } from '@sift/testing';
import { FixtureServer, startFixtureServer } from '@sift/safe-fetch';
import { startTestGateway, TestGateway } from '../testing/gateway-harness';
import { startWorkerProcess, WorkerProcess } from '../testing/worker-process';
import type { AccountsView, KeysView, LatencyView, QueuesView, RequestsView, UsageView } from './console-views';

const CHROMIUM_ARGUMENTS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

jest.setTimeout(120_000);

const article = (title: string) =>
  `<!doctype html><html lang="en"><head><title>${title}</title></head><body><article><h1>${title}</h1>` +
  `<p>${'The usage console draws what operators would rather look at than read. '.repeat(10)}</p></article></body></html>`;

/** What a chart instance of the page holds, read through Chart.js's own registry. */
interface ChartData {
  type: string;
  labels: string[];
  datasets: Array<{ label: string; data: Array<number | null>; color?: string }>;
}

// The operators' usage console on a real gateway, Postgres, Redis and extractor worker: traffic made through real
// POST /search and /extract requests of one account's two keys, then read back through the console's data
// endpoints over HTTP and through the page in Debian's Chromium.
describe('usage console at /admin/console', () => {
  let gateway: TestGateway;
  let worker: WorkerProcess;
  let site: FixtureServer;
  const adminToken = randomBytes(16).toString('hex');
  const operator = { Authorization: `Bearer ${adminToken}` };
  let accountId: string;
  let accountName: string;
  let searchKey: TestKey;
  let extractKey: TestKey;
  const requestIds: string[] = [];

  beforeAll(async () => {
    site = await startFixtureServer(
      Object.fromEntries(
        ['a', 'b', 'c', 'd', 'e'].map((name) => [`/${name}`, (_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end(article(`Page ${name}`))]),
      ),
    );
    worker = await startWorkerProcess('extractor-worker');
    gateway = await startTestGateway({ ADMIN_TOKEN: adminToken, QUEUE_PREFIX: worker.queuePrefix, FETCH_ALLOW_CIDRS: '127.0.0.1/32' });
    const account = await createTestAccount(gateway.prisma, { plan: 'growth', name: 'console' });
    accountId = account.id;
    accountName = account.name;
    searchKey = await createTestKey(gateway.prisma, accountId);
    extractKey = await createTestKey(gateway.prisma, accountId, { creditLimit: 50 });
    // The account's traffic: 3 basic and 1 advanced search (1 + 1 + 1 + 2 credits) with one key; with the other, an
    // extract of 5 pages (1 credit per 5 pages) and a search refused as invalid (400, no credit).
    const calls: Array<{ key: TestKey; path: string; body: unknown; status: number }> = [
      { key: searchKey, path: '/search', body: { query: 'usage console one' }, status: 200 },
      { key: searchKey, path: '/search', body: { query: 'usage console two' }, status: 200 },
      { key: searchKey, path: '/search', body: { query: 'usage console three' }, status: 200 },
      { key: searchKey, path: '/search', body: { query: 'usage console four', search_depth: 'advanced' }, status: 200 },
      { key: extractKey, path: '/extract', body: { urls: ['a', 'b', 'c', 'd', 'e'].map((name) => `${site.url}/${name}`) }, status: 200 },
      { key: extractKey, path: '/search', body: { query: '' }, status: 400 },
    ];
    for (const call of calls) {
      const answer = await callGateway<{ request_id?: string }>(gateway.baseUrl, 'POST', call.path, { apiKey: call.key.apiKey, body: call.body });
      expect({ path: call.path, status: answer.status }).toEqual({ path: call.path, status: call.status });
      requestIds.push(answer.headers.get('x-request-id') ?? '');
    }
  }, 180_000);

  afterAll(async () => {
    await Promise.all([gateway?.close(), worker?.stop(), site?.close()]);
  });

  const read = <Body>(path: string, headers: Record<string, string> = operator) => callGateway<Body>(gateway.baseUrl, 'GET', path, { headers });

  describe('data endpoints over HTTP', () => {
    it('refuse a caller without the ADMIN_TOKEN, with a tenant API key or a wrong secret, and ask a browser for it', async () => {
      for (const path of ['/admin/console', '/admin/console/api/usage', '/admin/console/api/requests', '/admin/console/api/queues', '/admin/console/assets/usage-console.js']) {
        const anonymous = await read(path, {});
        expect({ path, status: anonymous.status, challenge: anonymous.headers.get('www-authenticate') }).toEqual({
          path,
          status: 401,
          challenge: expect.stringMatching(/^Basic realm="Sift console"/),
        });
        expect(anonymous.body).toEqual({ detail: { error: 'Unauthorized: the usage console needs the ADMIN_TOKEN.' } });
        expect((await read(path, { Authorization: `Bearer ${searchKey.apiKey}` })).status).toBe(401);
        const wrongBasic = Buffer.from(`operator:${searchKey.apiKey}`).toString('base64');
        expect((await read(path, { Authorization: `Basic ${wrongBasic}` })).status).toBe(401);
      }
    });

    it('answer the ADMIN_TOKEN as a bearer or as a Basic password, never cached', async () => {
      const basic = Buffer.from(`anyone:${adminToken}`).toString('base64');
      const page = await read<string>('/admin/console', { Authorization: `Basic ${basic}` });
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(page.body).toContain('<canvas id="chart-requests">');
      const usage = await read(`/admin/console/api/usage?account=${accountId}`);
      expect(usage.status).toBe(200);
      expect(usage.headers.get('cache-control')).toBe('no-store');
      const chartLibrary = await read<string>('/admin/console/assets/chart.umd.min.js');
      expect(chartLibrary.status).toBe(200);
      expect(chartLibrary.body).toContain('Chart.js v4');
    });

    it('adds up the account’s requests and credits per endpoint and per key', async () => {
      const byEndpoint = await read<UsageView>(`/admin/console/api/usage?account=${accountId}`);
      expect(byEndpoint.status).toBe(200);
      expect(byEndpoint.body).toMatchObject({ bucket: 'hour', group_by: 'endpoint', totals: { requests: 6, credits: 6, errors: 1 } });
      expect(byEndpoint.body.buckets.length).toBeGreaterThanOrEqual(24);
      const totals = (view: UsageView) => view.series.map((series) => [series.label, series.total_requests, series.total_credits]);
      expect(totals(byEndpoint.body)).toEqual([
        ['search', 5, 5],
        ['extract', 1, 1],
      ]);
      for (const series of byEndpoint.body.series) {
        expect(series.requests).toHaveLength(byEndpoint.body.buckets.length);
        expect(series.requests.reduce((sum, value) => sum + value, 0)).toBe(series.total_requests);
      }

      const byKey = await read<UsageView>(`/admin/console/api/usage?account=${accountId}&group_by=key&bucket=day`);
      expect(byKey.body.bucket).toBe('day');
      expect(byKey.body.series.map((series) => [series.group, series.total_requests, series.total_credits])).toEqual([
        [searchKey.id, 4, 5],
        [extractKey.id, 2, 1],
      ]);
      expect(byKey.body.series[0].label).toMatch(new RegExp(`\\*\\*\\*\\*${searchKey.apiKey.slice(-4)}$`));

      const oneKey = await read<UsageView>(`/admin/console/api/usage?account=${accountId}&key=${extractKey.id}&endpoint=search`);
      expect(oneKey.body.totals).toEqual({ requests: 1, credits: 0, errors: 1 });
      const byAccount = await read<UsageView>(`/admin/console/api/usage?account=${accountId}&group_by=account`);
      expect(totals(byAccount.body)).toEqual([[accountName, 6, 6]]);
    });

    it('reports latency percentiles per endpoint and the answers by status', async () => {
      const latency = await read<LatencyView>(`/admin/console/api/latency?account=${accountId}`);
      expect(latency.status).toBe(200);
      expect(latency.body.status_counts).toEqual([
        { status: 200, requests: 5 },
        { status: 400, requests: 1 },
      ]);
      expect(latency.body.endpoints.map((endpoint) => endpoint.endpoint)).toEqual(['extract', 'search']);
      for (const endpoint of latency.body.endpoints) {
        const filled = endpoint.requests.flatMap((requests, position) => (requests > 0 ? [position] : []));
        expect(filled.length).toBeGreaterThan(0);
        for (const position of filled) {
          expect(endpoint.p50_ms[position]).toBeGreaterThan(0);
          expect(endpoint.p95_ms[position]).toBeGreaterThanOrEqual(endpoint.p50_ms[position] ?? Infinity);
        }
        expect(endpoint.p50_ms.filter((value, position) => !filled.includes(position) && value !== null)).toEqual([]);
      }
      const search = latency.body.endpoints.find((endpoint) => endpoint.endpoint === 'search');
      expect(search?.errors.reduce((sum, value) => sum + value, 0)).toBe(1);
    });

    it('pages through the request log newest first, with filters by key, endpoint and status', async () => {
      const all = await read<RequestsView>(`/admin/console/api/requests?account=${accountId}`);
      expect(all.body.requests.map((entry) => entry.request_id)).toEqual([...requestIds].reverse());
      expect(all.body.next_cursor).toBeNull();
      expect(all.body.requests[0]).toMatchObject({
        account: { id: accountId, name: accountName },
        key: { id: extractKey.id, last_four: extractKey.apiKey.slice(-4) },
        endpoint: 'search',
        status: 400,
        credits: 0,
      });

      const pages: string[][] = [];
      let cursor: string | null = '';
      while (cursor !== null) {
        const page: { body: RequestsView } = await read<RequestsView>(`/admin/console/api/requests?account=${accountId}&limit=4${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        pages.push(page.body.requests.map((entry) => entry.request_id));
        cursor = page.body.next_cursor;
      }
      expect(pages.map((page) => page.length)).toEqual([4, 2]);
      expect(pages.flat()).toEqual([...requestIds].reverse());

      const extracts = await read<RequestsView>(`/admin/console/api/requests?account=${accountId}&endpoint=extract`);
      expect(extracts.body.requests.map((entry) => [entry.endpoint, entry.credits, entry.request_id])).toEqual([['extract', 1, requestIds[4]]]);
      const refused = await read<RequestsView>(`/admin/console/api/requests?account=${accountId}&status=4xx`);
      expect(refused.body.requests.map((entry) => entry.request_id)).toEqual([requestIds[5]]);
      const ok = await read<RequestsView>(`/admin/console/api/requests?account=${accountId}&status=200&key=${searchKey.id}`);
      expect(ok.body.requests).toHaveLength(4);
      const past = await read<RequestsView>(`/admin/console/api/requests?account=${accountId}&from=2020-01-01T00:00:00Z&to=2020-01-02T00:00:00Z`);
      expect(past.body.requests).toEqual([]);
    });

    it('shows this month’s credits against the plan and each key’s limit', async () => {
      const accounts = await read<AccountsView>(`/admin/console/api/accounts?search=${encodeURIComponent(accountName.toUpperCase())}`);
      expect(accounts.body.accounts).toEqual([
        { id: accountId, name: accountName, plan: { id: 'growth', name: 'Growth' }, plan_credits: 6, plan_limit: 100000, paygo_credits: 0, paygo_limit: null },
      ]);
      const keys = await read<KeysView>(`/admin/console/api/accounts/${accountId}/keys`);
      expect(keys.body.keys.map((key) => [key.id, key.credits, key.credit_limit])).toEqual([
        [searchKey.id, 5, null],
        [extractKey.id, 1, 50],
      ]);
    });

    it('reports the depth of every queue', async () => {
      const queues = await read<QueuesView>('/admin/console/api/queues');
      expect(queues.status).toBe(200);
      expect(queues.body.queues.map((queue) => queue.queue).sort()).toEqual(['crawl', 'extract', 'research']);
      for (const queue of queues.body.queues) expect(queue).toMatchObject({ waiting: expect.any(Number), active: expect.any(Number), delayed: expect.any(Number) });
    });

    it('refuses filters it cannot answer', async () => {
      const invalid = async (query: string) => (await read<{ detail: { error: string } }>(`/admin/console/api/usage?${query}`)).body.detail.error;
      expect(await invalid('account=not-a-uuid')).toMatch(/account must be a UUID/);
      expect(await invalid('endpoint=feedback')).toMatch(/endpoint must be one of/);
      expect(await invalid('status=6xx')).toMatch(/status must be/);
      expect(await invalid('from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z')).toBe('from must be before to.');
      expect(await invalid('from=2020-01-01T00:00:00Z&to=2026-01-01T00:00:00Z&bucket=hour')).toMatch(/at most 1000/);
      expect((await read('/admin/console/api/accounts/not-a-uuid/keys')).status).toBe(400);
    });

    it('is not there at all without ADMIN_TOKEN', async () => {
      const plain = await startTestGateway();
      try {
        for (const path of ['/admin/console', '/admin/console/api/usage']) {
          expect((await callGateway(plain.baseUrl, 'GET', path, { headers: operator })).status).toBe(404);
        }
      } finally {
        await plain.close();
      }
    });
  });

  describe('the page in Chromium', () => {
    let browser: Browser;
    let page: Page;
    const screenshots = process.env.CONSOLE_SCREENSHOTS_DIR ?? mkdtempSync(join(tmpdir(), 'sift-console-'));

    beforeAll(async () => {
      browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGUMENTS });
    });

    afterAll(async () => {
      await browser?.close();
    });

    const chart = (id: string) =>
      page.evaluate((canvasId) => {
        const instance = (window as unknown as { Chart: { getChart(id: string): { config: { type: string }; data: { labels: unknown[]; datasets: Array<{ label: string; data: Array<number | null>; borderColor?: string }> } } | undefined } }).Chart.getChart(canvasId);
        if (!instance) return null;
        return {
          type: instance.config.type,
          labels: instance.data.labels.map(String),
          datasets: instance.data.datasets.map((dataset) => ({ label: dataset.label, data: dataset.data, color: dataset.borderColor })),
        };
      }, id);
    const totalsOf = (data: ChartData | null) => Object.fromEntries((data?.datasets ?? []).map((dataset) => [dataset.label, dataset.data.reduce<number>((sum, value) => sum + (value ?? 0), 0)]));
    const logRows = () =>
      page.locator('#request-log tbody tr').evaluateAll((rows) => rows.map((row) => Array.from(row.querySelectorAll('td'), (cell) => cell.textContent ?? '')));
    const applied = async () => {
      await page.locator('#filters button[type=submit]').click();
      await page.locator('body[data-state="ready"]').waitFor();
    };

    it('answers 401 to a browser without the credential or with a wrong one', async () => {
      const anonymous = await browser.newContext();
      try {
        const tab = await anonymous.newPage();
        const challenged = tab.waitForResponse((response) => new URL(response.url()).pathname === '/admin/console');
        // Headless Chromium cannot ask for the password, so after the 401 its navigation fails instead of prompting.
        await tab.goto(`${gateway.baseUrl}/admin/console`).catch(() => undefined);
        const response = await challenged;
        expect(response.status()).toBe(401);
        expect(response.headers()['www-authenticate']).toMatch(/^Basic realm="Sift console"/);
      } finally {
        await anonymous.close();
      }
      const mistaken = await browser.newContext({ httpCredentials: { username: 'operator', password: searchKey.apiKey } });
      try {
        const tab = await mistaken.newPage();
        const response = await tab.goto(`${gateway.baseUrl}/admin/console`);
        expect(response?.status()).toBe(401);
        expect(await tab.locator('body').textContent()).toContain('the usage console needs the ADMIN_TOKEN');
        await tab.screenshot({ path: join(screenshots, '1-wrong-credential.png') });
      } finally {
        await mistaken.close();
      }
    });

    it('behind the credential, draws the account’s usage, latency, statuses, plan and queues, and lists its requests', async () => {
      const context = await browser.newContext({ httpCredentials: { username: 'operator', password: adminToken }, viewport: { width: 1400, height: 1000 } });
      page = await context.newPage();
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(error.message));
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(message.text());
      });
      const response = await page.goto(`${gateway.baseUrl}/admin/console?account=${accountId}`);
      expect(response?.status()).toBe(200);
      await page.locator('body[data-state="ready"]').waitFor();
      expect(problems).toEqual([]);
      expect(await page.locator('#filter-account').inputValue()).toBe(accountId);

      const requests = await chart('chart-requests');
      expect(requests?.type).toBe('bar');
      expect(requests?.labels.length).toBeGreaterThanOrEqual(24);
      expect(totalsOf(requests)).toEqual({ search: 5, extract: 1 });
      expect(totalsOf(await chart('chart-credits'))).toEqual({ search: 5, extract: 1 });
      const latency = await chart('chart-latency');
      expect(latency?.datasets.map((dataset) => dataset.label)).toEqual(['extract p50', 'extract p95', 'search p50', 'search p95']);
      for (const dataset of latency?.datasets ?? []) expect(dataset.data.some((value) => value !== null && value > 0)).toBe(true);
      // An endpoint has one color on the page: its bars in the usage charts and its lines in the latency chart.
      const colorIn = (data: ChartData | null, label: string) => data?.datasets.find((dataset) => dataset.label === label)?.color;
      for (const endpoint of ['search', 'extract']) {
        expect({ endpoint, latency: [colorIn(latency, `${endpoint} p50`), colorIn(latency, `${endpoint} p95`)] }).toEqual({ endpoint, latency: [colorIn(requests, endpoint), colorIn(requests, endpoint)] });
      }
      expect(colorIn(requests, 'search')).not.toBe(colorIn(requests, 'extract'));
      const statuses = await chart('chart-status');
      expect([statuses?.labels, statuses?.datasets[0].data]).toEqual([
        ['200', '400'],
        [5, 1],
      ]);
      const plans = await chart('chart-plans');
      expect(plans?.labels).toEqual([accountName]);
      expect(plans?.datasets[0].data[0]).toBeCloseTo((6 / 100000) * 100, 6);
      const queues = await chart('chart-queues');
      expect([...(queues?.labels ?? [])].sort()).toEqual(['crawl', 'extract', 'research']);
      expect(await page.locator('#total-requests').textContent()).toBe('6');
      expect(await page.locator('#total-credits').textContent()).toBe('6');

      const rows = await logRows();
      expect(rows.map((row) => row[8])).toEqual([...requestIds].reverse());
      expect(rows.every((row) => row[1] === accountName)).toBe(true);
      await expect(page.locator('#keys-table tbody tr').count()).resolves.toBe(2);
      await page.screenshot({ path: join(screenshots, '2-account-usage.png'), fullPage: true });
    });

    it('filters by endpoint, status and key, and groups usage by key', async () => {
      await page.locator('#filter-endpoint').selectOption('extract');
      await applied();
      expect((await logRows()).map((row) => [row[3], row[8]])).toEqual([['extract', requestIds[4]]]);
      expect(totalsOf(await chart('chart-requests'))).toEqual({ extract: 1 });
      expect(new URL(page.url()).searchParams.get('endpoint')).toBe('extract');
      await page.screenshot({ path: join(screenshots, '3-filter-extract.png'), fullPage: true });

      await page.locator('#filter-endpoint').selectOption('');
      await page.locator('#filter-status').selectOption('4xx');
      await applied();
      expect((await logRows()).map((row) => [row[5], row[8]])).toEqual([['400', requestIds[5]]]);
      expect((await chart('chart-status'))?.labels).toEqual(['400']);

      await page.locator('#filter-status').selectOption('');
      await page.locator('#filter-key').selectOption(searchKey.id);
      await page.locator('#filter-group').selectOption('key');
      await applied();
      expect((await logRows()).map((row) => row[8])).toEqual(requestIds.slice(0, 4).reverse());
      const byKey = await chart('chart-credits');
      expect(byKey?.datasets).toHaveLength(1);
      expect(byKey?.datasets[0].label).toMatch(new RegExp(`\\*\\*\\*\\*${searchKey.apiKey.slice(-4)}$`));
      expect(totalsOf(byKey)).toEqual({ [byKey?.datasets[0].label ?? '']: 5 });
      await page.screenshot({ path: join(screenshots, '4-filter-key-by-key.png'), fullPage: true });

      await page.locator('#filter-range').selectOption('custom');
      await page.locator('#filter-from').fill('2020-01-01T00:00');
      await page.locator('#filter-to').fill('2020-01-03T00:00');
      await applied();
      expect(await logRows()).toEqual([['Nothing in this view.']]);
      expect(totalsOf(await chart('chart-requests'))).toEqual({});
    });
  });
});
