import { createHash } from 'node:crypto';
import { ProjectRepository, RequestLogRepository, type RequestLogRecord } from '@sift/persistence';
import { callGateway, createTestAccount, createTestKey } from '@sift/testing';
import { startTestGateway, TestGateway } from '../testing/gateway-harness';

describe('Request logging of data-plane requests (real Postgres)', () => {
  let gateway: TestGateway;

  beforeAll(async () => {
    gateway = await startTestGateway();
  });

  afterAll(async () => {
    await gateway.close();
  });

  /** The log row is written after the response has been sent; poll for it instead of sleeping. */
  async function eventuallyLogged(accountId: string, requestId: string): Promise<RequestLogRecord> {
    const logs = gateway.app.get(RequestLogRepository);
    const deadline = Date.now() + 10_000;
    for (;;) {
      const row = await logs.findByRequestId(accountId, requestId);
      if (row) return row;
      if (Date.now() > deadline) throw new Error(`request ${requestId} was never logged`);
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  it('stores X-Session-Id, the project of X-Project-ID and only a hash of X-Human-Id; /logs shows the request', async () => {
    const account = await createTestAccount(gateway.prisma, { plan: 'startup', name: 'request-log' });
    const { apiKey, id } = await createTestKey(gateway.prisma, account.id);
    // A request refused by validation is still a served request of the key, and needs no worker.
    const answer = await callGateway(gateway.baseUrl, 'POST', '/extract', {
      apiKey,
      body: {},
      headers: { 'X-Session-Id': 'session-7', 'X-Human-Id': 'alice@example.com', 'X-Project-ID': 'project-log' },
    });
    expect(answer.status).toBe(400);
    const requestId = answer.headers.get('x-request-id') as string;
    const row = await eventuallyLogged(account.id, requestId);
    const project = await gateway.app.get(ProjectRepository).findByExternalId(account.id, 'project-log');
    expect(row).toMatchObject({
      apiKeyId: id,
      endpoint: 'extract',
      statusCode: 400,
      credits: 0,
      sessionId: 'session-7',
      projectId: project?.id,
      humanIdHash: createHash('sha256').update('alice@example.com').digest('hex'),
    });
    expect(JSON.stringify(row)).not.toContain('alice@example.com');
    const logs = await callGateway<{ logs: Array<{ request_id: string }> }>(gateway.baseUrl, 'POST', '/logs', {
      apiKey,
      body: { project_id: 'project-log', endpoints: ['extract'] },
    });
    expect(logs.body.logs.map((entry) => entry.request_id)).toEqual([requestId]);
  });

  it('records a request the service refused with its status and the depth it asked for', async () => {
    const account = await createTestAccount(gateway.prisma, { plan: 'startup', name: 'request-log-refused' });
    const { apiKey } = await createTestKey(gateway.prisma, account.id, { creditLimit: 1 });
    // Advanced search costs 2 credits: refused by the pre-check before any provider is asked.
    const answer = await callGateway(gateway.baseUrl, 'POST', '/search', { apiKey, body: { query: 'refused', search_depth: 'advanced' } });
    expect(answer.status).toBe(432);
    const row = await eventuallyLogged(account.id, answer.headers.get('x-request-id') as string);
    expect(row).toMatchObject({ endpoint: 'search', depth: 'advanced', statusCode: 432, credits: 0 });
  });

  it('POST /logs lists a request that finished a moment ago (pending batched rows are written first)', async () => {
    const account = await createTestAccount(gateway.prisma, { plan: 'startup', name: 'request-log-fresh' });
    const { apiKey } = await createTestKey(gateway.prisma, account.id);
    const answer = await callGateway(gateway.baseUrl, 'POST', '/extract', { apiKey, body: {} });
    expect(answer.status).toBe(400);
    const logs = await callGateway<{ logs: Array<{ request_id: string }> }>(gateway.baseUrl, 'POST', '/logs', { apiKey, body: {} });
    expect(logs.body.logs.map((entry) => entry.request_id)).toEqual([answer.headers.get('x-request-id')]);
  });

  it('a graceful shutdown writes the request logs still waiting for their batch', async () => {
    const stopping = await startTestGateway();
    const account = await createTestAccount(gateway.prisma, { plan: 'startup', name: 'request-log-shutdown' });
    const { apiKey } = await createTestKey(gateway.prisma, account.id);
    const answer = await callGateway(stopping.baseUrl, 'POST', '/extract', { apiKey, body: {} });
    expect(answer.status).toBe(400);
    await stopping.close();
    const row = await gateway.app.get(RequestLogRepository).findByRequestId(account.id, answer.headers.get('x-request-id') as string);
    expect(row).toMatchObject({ endpoint: 'extract', statusCode: 400 });
  });

  it('observes request latency per route for /metrics', async () => {
    await callGateway(gateway.baseUrl, 'GET', '/health');
    // A path no route serves shares one label, so scanners cannot grow the label set.
    expect((await callGateway(gateway.baseUrl, 'GET', '/no-such-route-7')).status).toBe(404);
    const metrics = await callGateway<string>(gateway.baseUrl, 'GET', '/metrics');
    expect(metrics.body).toMatch(/sift_http_request_duration_seconds_count\{method="GET",route="\/health",status="200"\} [1-9]/);
    expect(metrics.body).toMatch(/sift_http_request_duration_seconds_count\{method="GET",route="other",status="404"\} [1-9]/);
    expect(metrics.body).not.toContain('no-such-route-7');
  });
});
