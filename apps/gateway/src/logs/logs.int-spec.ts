import { randomUUID } from 'node:crypto';
import { ProjectRepository } from '@sift/persistence';
import { callGateway, createTestAccount, createTestKey } from '@sift/testing';
import { startTestGateway, TestGateway } from '../testing/gateway-harness';

interface LogsBody {
  logs: Array<{ timestamp: string; endpoint: string; request_id: string; api_key: string | null; credits: number }>;
  count: number;
  request_id: string;
  response_time: number;
  detail?: { error: string };
}

describe('POST /logs over HTTP (real Postgres)', () => {
  let gateway: TestGateway;

  beforeAll(async () => {
    gateway = await startTestGateway();
  });

  afterAll(async () => {
    await gateway.close();
  });

  /** A paid account with two keys and request logs written on known days (what the request logger stores). */
  async function givenLoggedAccount() {
    const account = await createTestAccount(gateway.prisma, { plan: 'startup', name: 'logs' });
    const first = await createTestKey(gateway.prisma, account.id);
    const second = await createTestKey(gateway.prisma, account.id);
    const project = await gateway.app.get(ProjectRepository).findOrCreate(account.id, 'project-a');
    const rows = [
      { endpoint: 'search', at: '2026-01-10T08:00:00.000Z', apiKeyId: first.id, projectId: project.id },
      { endpoint: 'extract', at: '2026-01-11T09:00:00.000Z', apiKeyId: second.id, projectId: null },
      { endpoint: 'crawl', at: '2026-01-12T10:00:00.000Z', apiKeyId: first.id, projectId: null },
      { endpoint: 'map', at: '2026-01-12T23:59:59.000Z', apiKeyId: second.id, projectId: project.id },
      { endpoint: 'research', at: '2026-01-13T00:00:00.000Z', apiKeyId: first.id, projectId: null },
    ].map((row) => ({ ...row, requestId: randomUUID() }));
    await gateway.prisma.requestLog.createMany({
      data: rows.map((row) => ({
        requestId: row.requestId,
        accountId: account.id,
        apiKeyId: row.apiKeyId,
        projectId: row.projectId,
        endpoint: row.endpoint,
        statusCode: 200,
        responseTime: 0.25,
        credits: 1,
        createdAt: new Date(row.at),
      })),
    });
    const logs = (apiKey: string, body: Record<string, unknown> = {}) =>
      callGateway<LogsBody>(gateway.baseUrl, 'POST', '/logs', { apiKey, body });
    return { account, first, second, rows, logs };
  }

  it('403 on the free plan', async () => {
    const account = await createTestAccount(gateway.prisma, { plan: 'researcher', name: 'logs-free' });
    const { apiKey } = await createTestKey(gateway.prisma, account.id);
    const answer = await callGateway(gateway.baseUrl, 'POST', '/logs', { apiKey, body: {} });
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({ detail: { error: expect.stringMatching(/paid plans only/) } });
  });

  it('returns the account logs newest first with request_id and response_time', async () => {
    const { first, rows, logs } = await givenLoggedAccount();
    const answer = await logs(first.apiKey);
    expect(answer.status).toBe(200);
    expect(answer.body.logs.map((entry) => entry.request_id)).toEqual(rows.map((row) => row.requestId).reverse());
    expect(answer.body.count).toBe(5);
    expect(answer.body.request_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(answer.body.response_time).toBeGreaterThan(0);
    expect(answer.body.logs[0]).toMatchObject({ endpoint: 'research', timestamp: '2026-01-13T00:00:00.000Z', credits: 1 });
    expect(answer.body.logs[0].api_key).toMatch(new RegExp(`${first.apiKey.slice(-4)}$`));
  });

  it('limit takes 1 to 10000; outside that range is a 400', async () => {
    const { first, rows, logs } = await givenLoggedAccount();
    expect((await logs(first.apiKey, { limit: 2 })).body.logs.map((entry) => entry.request_id)).toEqual([rows[4].requestId, rows[3].requestId]);
    expect((await logs(first.apiKey, { limit: 1 })).body.count).toBe(1);
    expect((await logs(first.apiKey, { limit: 10000 })).body.count).toBe(5);
    for (const limit of [0, 10001, -1, 2.5, 'many']) {
      const answer = await logs(first.apiKey, { limit });
      expect({ limit, status: answer.status }).toEqual({ limit, status: 400 });
      expect(answer.body.detail?.error).toMatch(/limit/);
    }
  });

  it('start_date and end_date cover whole days', async () => {
    const { first, rows, logs } = await givenLoggedAccount();
    const answer = await logs(first.apiKey, { start_date: '2026-01-11', end_date: '2026-01-12' });
    expect(answer.body.logs.map((entry) => entry.request_id)).toEqual([rows[3].requestId, rows[2].requestId, rows[1].requestId]);
    const instant = await logs(first.apiKey, { start_date: '2026-01-12T10:00:00Z' });
    expect(instant.body.count).toBe(3);
    expect((await logs(first.apiKey, { start_date: '2026-01-13', end_date: '2026-01-10' })).status).toBe(400);
    expect((await logs(first.apiKey, { start_date: 'yesterday' })).status).toBe(400);
  });

  it('filters by endpoints; an unknown endpoint is a 400 naming the valid ones', async () => {
    const { first, logs } = await givenLoggedAccount();
    const answer = await logs(first.apiKey, { endpoints: ['search', 'map'] });
    expect(answer.body.logs.map((entry) => entry.endpoint)).toEqual(['map', 'search']);
    const invalid = await logs(first.apiKey, { endpoints: ['search', 'usage'] });
    expect(invalid.status).toBe(400);
    expect(invalid.body.detail?.error).toMatch(/usage/);
    expect(invalid.body.detail?.error).toMatch(/search, extract, (crawl, map|map, crawl), research/);
  });

  it('filters by project_id and, with filter_by_api_key, by the calling key', async () => {
    const { first, second, rows, logs } = await givenLoggedAccount();
    expect((await logs(first.apiKey, { project_id: 'project-a' })).body.logs.map((entry) => entry.request_id)).toEqual([rows[3].requestId, rows[0].requestId]);
    expect((await logs(first.apiKey, { project_id: 'no-such-project' })).body.count).toBe(0);
    const own = await logs(second.apiKey, { filter_by_api_key: true });
    expect(own.body.logs.map((entry) => entry.request_id)).toEqual([rows[3].requestId, rows[1].requestId]);
    expect((await logs(second.apiKey, { filter_by_api_key: false })).body.count).toBe(5);
  });

  it("never shows another account's logs", async () => {
    await givenLoggedAccount();
    const stranger = await createTestAccount(gateway.prisma, { plan: 'growth', name: 'logs-stranger' });
    const { apiKey } = await createTestKey(gateway.prisma, stranger.id);
    expect((await callGateway<LogsBody>(gateway.baseUrl, 'POST', '/logs', { apiKey, body: {} })).body.count).toBe(0);
  });
});
