import { randomBytes } from 'node:crypto';
import { FixtureServer, startFixtureServer } from '@sift/safe-fetch';
import { JobQueue } from '@sift/queue';
import { ExtractUrlJob } from '@sift/queue-contracts';
import { callGateway, createTestAccount, createTestKey, freePortBelowEphemeralRange } from '@sift/testing';
import { startTestGateway, TestGateway } from '../testing/gateway-harness';

jest.setTimeout(60_000);

/** The value of one sample line of the Prometheus text, e.g. `sift_queue_jobs{queue="extract",state="waiting"}`. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((entry) => entry.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

// GET /metrics of a real gateway on real Redis and Postgres; SearXNG and the model are loopback servers speaking
// their wire formats. No worker consumes the queues, so enqueued jobs wait.
describe('GET /metrics', () => {
  let gateway: TestGateway;
  let searxng: FixtureServer;
  let model: FixtureServer;

  beforeAll(async () => {
    searxng = await startFixtureServer({
      '/search': (request, response) => {
        const query = new URL(request.url ?? '/', 'http://searxng').searchParams.get('q') ?? '';
        const results = [{ url: 'https://example.com/metrics', title: 'Metrics', content: 'Queue depth and age per queue.', engine: 'duckduckgo', score: 1 }];
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ query, number_of_results: 1, results, answers: [], suggestions: [] }));
      },
    });
    // The model is down: its 503 counts as an upstream error.
    model = await startFixtureServer({ '/v1/chat/completions': (_request, response) => response.writeHead(503).end('overloaded') });
    gateway = await startTestGateway({
      QUEUE_PREFIX: `test-${randomBytes(4).toString('hex')}`,
      SEARXNG_URL: searxng.url,
      LLM_BASE_URL: `${model.url}/v1`,
      FETCH_ALLOW_CIDRS: '127.0.0.1/32',
    });
  });

  afterAll(async () => {
    await Promise.all([gateway?.close(), searxng?.close(), model?.close()]);
  });

  it('shows the depth of a queue and the age of its oldest job while jobs wait', async () => {
    const jobQueue = gateway.app.get(JobQueue);
    const before = await callGateway<string>(gateway.baseUrl, 'GET', '/metrics');
    expect(sample(before.body, 'sift_queue_jobs{queue="extract",state="waiting"}')).toBe(0);
    expect(sample(before.body, 'sift_queue_oldest_waiting_seconds{queue="extract"}')).toBe(0);

    for (const path of ['/a', '/b', '/c']) {
      await jobQueue.enqueue(ExtractUrlJob, {
        requestId: randomBytes(8).toString('hex'),
        accountId: 'keyless',
        url: `https://example.com${path}`,
        extractDepth: 'basic',
        format: 'markdown',
        timeoutMs: 10_000,
        includeImages: false,
        includeFavicon: false,
        chunksPerSource: 3,
      });
    }
    await new Promise((resolve) => setTimeout(resolve, 1_100));

    const { status, headers, body } = await callGateway<string>(gateway.baseUrl, 'GET', '/metrics');
    expect(status).toBe(200);
    expect(headers.get('content-type')).toMatch(/^text\/plain/);
    expect(sample(body, 'sift_queue_jobs{queue="extract",state="waiting"}')).toBe(3);
    expect(sample(body, 'sift_queue_jobs{queue="crawl",state="waiting"}')).toBe(0);
    const age = sample(body, 'sift_queue_oldest_waiting_seconds{queue="extract"}') as number;
    expect(age).toBeGreaterThanOrEqual(1);
    expect(age).toBeLessThan(30);
  });

  it('counts the credits a search charged and the upstream calls it made: SearXNG’s latency, the model’s error', async () => {
    const account = await createTestAccount(gateway.prisma, { plan: 'growth' });
    const { apiKey } = await createTestKey(gateway.prisma, account.id);
    const charged = async () => sample((await callGateway<string>(gateway.baseUrl, 'GET', '/metrics')).body, 'sift_credits_charged_total{endpoint="search"}') ?? 0;
    const creditsBefore = await charged();

    const search = await callGateway(gateway.baseUrl, 'POST', '/search', { apiKey, body: { query: 'queue depth metrics', include_answer: true } });
    expect(search.status).toBe(200);

    const text = (await callGateway<string>(gateway.baseUrl, 'GET', '/metrics')).body;
    expect((await charged()) - creditsBefore).toBe(1);
    expect(sample(text, 'sift_upstream_request_duration_seconds_count{upstream="searxng",status="200"}')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'sift_upstream_errors_total{upstream="llm"}')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'sift_upstream_errors_total{upstream="searxng"}') ?? 0).toBe(0);
  });

  it('answers only the METRICS_TOKEN bearer when one is set', async () => {
    const guarded = await startTestGateway({ METRICS_TOKEN: 'scrape-secret' });
    try {
      expect((await callGateway(guarded.baseUrl, 'GET', '/metrics')).status).toBe(401);
      expect((await callGateway(guarded.baseUrl, 'GET', '/metrics', { apiKey: 'wrong-secret' })).status).toBe(401);
      const allowed = await callGateway<string>(guarded.baseUrl, 'GET', '/metrics', { apiKey: 'scrape-secret' });
      expect(allowed.status).toBe(200);
      expect(allowed.body).toContain('sift_queue_jobs');
    } finally {
      await guarded.close();
    }
  });

  it('moves to METRICS_PORT when one is set, leaving the public port without it', async () => {
    const port = await freePortBelowEphemeralRange();
    const separate = await startTestGateway({ METRICS_PORT: String(port) });
    try {
      expect((await callGateway(separate.baseUrl, 'GET', '/metrics')).status).toBe(404);
      const response = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(response.status).toBe(200);
      expect(await response.text()).toContain('sift_http_request_duration_seconds');
    } finally {
      await separate.close();
    }
    await expect(fetch(`http://127.0.0.1:${port}/metrics`)).rejects.toThrow();
  });
});
