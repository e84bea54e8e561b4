import { randomBytes } from 'node:crypto';
import { callGateway } from '@sift/testing';
import { startTestGateway, TestGateway } from '../testing/gateway-harness';

jest.setTimeout(60_000);

// Bull Board on a real gateway and Redis, behind ADMIN_TOKEN.
describe('GET /admin/queues', () => {
  let gateway: TestGateway;
  const adminToken = randomBytes(16).toString('hex');

  beforeAll(async () => {
    gateway = await startTestGateway({ ADMIN_TOKEN: adminToken, QUEUE_PREFIX: `test-${randomBytes(4).toString('hex')}` });
  });

  afterAll(async () => {
    await gateway?.close();
  });

  it('answers 401 without the admin token, or with another secret, and asks a browser for it', async () => {
    const anonymous = await callGateway(gateway.baseUrl, 'GET', '/admin/queues');
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Basic /);
    expect(anonymous.body).toEqual({ detail: { error: 'Unauthorized: the queue dashboard needs the ADMIN_TOKEN.' } });
    expect((await callGateway(gateway.baseUrl, 'GET', '/admin/queues/api/queues', { apiKey: 'not-the-token' })).status).toBe(401);
  });

  it('shows the dashboard and every queue to the ADMIN_TOKEN bearer', async () => {
    const page = await callGateway<string>(gateway.baseUrl, 'GET', '/admin/queues', { apiKey: adminToken });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const api = await callGateway<{ queues: Array<{ name: string }> }>(gateway.baseUrl, 'GET', '/admin/queues/api/queues', { apiKey: adminToken });
    expect(api.status).toBe(200);
    expect(api.body.queues.map((queue) => queue.name).sort()).toEqual(['crawl', 'extract', 'research']);
  });

  it('takes the token as a Basic password, as a browser sends it', async () => {
    const basic = Buffer.from(`operator:${adminToken}`).toString('base64');
    const page = await callGateway(gateway.baseUrl, 'GET', '/admin/queues', { headers: { Authorization: `Basic ${basic}` } });
    expect(page.status).toBe(200);
  });

  it('is not there at all without ADMIN_TOKEN', async () => {
    const plain = await startTestGateway();
    try {
      expect((await callGateway(plain.baseUrl, 'GET', '/admin/queues')).status).toBe(404);
    } finally {
      await plain.close();
    }
  });
});
