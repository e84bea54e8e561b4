import { randomBytes } from 'node:crypto';
import { FixtureServer, startFixtureServer } from '@sift/safe-fetch';
import { callGateway, createTestAccount, createTestKey } from '@sift/testing';
import { startTestGateway, TestGateway } from '../testing/gateway-harness';
import { startWorkerProcess, WorkerProcess } from '../testing/worker-process';

jest.setTimeout(120_000);

const page = (title: string, links = '') =>
  `<!doctype html><html lang="en"><head><title>${title}</title></head><body><article><h1>${title}</h1>` +
  `<p>${'Request ids follow a request from the gateway into the worker. '.repeat(8)}</p>${links}</article></body></html>`;

/** The worker's output as JSON lines (anything else it printed is skipped). */
function logLines(worker: WorkerProcess): Record<string, unknown>[] {
  return worker
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

async function until<T>(probe: () => T | undefined, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out waiting for the log line');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

// One X-Request-Id from the HTTP request into the worker processes' log lines: real extractor and crawler workers,
// a gateway on the same queues, pages served on loopback.
describe('X-Request-Id', () => {
  let gateway: TestGateway;
  let extractor: WorkerProcess;
  let crawler: WorkerProcess;
  let site: FixtureServer;
  let apiKey: string;

  beforeAll(async () => {
    site = await startFixtureServer({
      '/': (_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end(page('Home', '<a href="/next">next</a>')),
      '/next': (_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end(page('Next')),
    });
    extractor = await startWorkerProcess('extractor-worker');
    crawler = await startWorkerProcess('crawler-worker', { QUEUE_PREFIX: extractor.queuePrefix });
    gateway = await startTestGateway({ QUEUE_PREFIX: extractor.queuePrefix, FETCH_ALLOW_CIDRS: '127.0.0.1/32' });
    const account = await createTestAccount(gateway.prisma, { plan: 'growth' });
    apiKey = (await createTestKey(gateway.prisma, account.id)).apiKey;
  }, 120_000);

  afterAll(async () => {
    await Promise.all([gateway?.close(), extractor?.stop(), crawler?.stop(), site?.close()]);
  });

  it.each([
    ['/extract', 'extractor', 'extract-url', { urls: [] as string[] }],
    ['/crawl', 'crawler', 'crawl', { url: '', limit: 2 }],
  ] as const)('%s: the caller’s id is echoed and stamped on the worker’s JSON lines for the job', async (path, which, jobName, template) => {
    const requestId = `trace-${randomBytes(6).toString('hex')}`;
    const body = 'urls' in template ? { urls: [`${site.url}/`] } : { ...template, url: `${site.url}/` };
    const response = await callGateway<{ request_id: string }>(gateway.baseUrl, 'POST', path, { apiKey, body, headers: { 'X-Request-Id': requestId } });

    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toBe(requestId);
    // The body's request_id stays the gateway's own: it keys the charge and the log row, so no caller may pick it.
    expect(response.body.request_id).toMatch(/^[0-9a-f-]{36}$/);
    const worker = which === 'extractor' ? extractor : crawler;
    const line = await until(() => logLines(worker).find((entry) => entry.requestId === requestId && entry.message === 'job completed'));
    expect(line).toMatchObject({ level: 'info', service: `${which}-worker`, job: jobName });
    expect(new Date(line.time as string).toISOString()).toBe(line.time);
    // The caller's key never reaches a log line.
    expect(worker.output()).not.toContain(apiKey);
  });

  it.each([
    ['longer than 200 characters', 'x'.repeat(201)],
    ['with a space', 'two words'],
    ['not ASCII', 'caf\u00e9'],
  ])('an X-Request-Id %s is replaced by the gateway’s own', async (_case, header) => {
    const response = await fetch(`${gateway.baseUrl}/health`, { headers: { 'X-Request-Id': header } });
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('an id of 200 visible characters is honoured, also on an error answer', async () => {
    const requestId = '!'.repeat(100) + '~'.repeat(100);
    const response = await callGateway(gateway.baseUrl, 'POST', '/extract', { apiKey, body: {}, headers: { 'X-Request-Id': requestId } });
    expect(response.status).toBe(400);
    expect(response.headers.get('x-request-id')).toBe(requestId);
  });
});
