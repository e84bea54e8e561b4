import { randomBytes, randomUUID } from 'node:crypto';
import { callGateway, createTestAccount, createTestKey } from '@sift/testing';
import { HTTP_METHODS } from '../openapi';
import { startTestGateway, TestGateway } from '../testing/gateway-harness';
import { ADMIN_TOKEN_UNSET_MESSAGE, OPERATOR_UNAUTHORIZED_MESSAGE, TENANT_KEY_REFUSED_MESSAGE } from './operator.guard';

interface Operation {
  method: string;
  path: string;
}

/** Each admin operation the served document lists, its path parameters filled with values that would be valid. */
async function adminOperations(gateway: TestGateway): Promise<Operation[]> {
  const document = (await callGateway<{ paths: Record<string, Record<string, unknown>> }>(gateway.baseUrl, 'GET', '/openapi.json')).body;
  return Object.entries(document.paths)
    .filter(([path]) => path.startsWith('/admin/'))
    .flatMap(([path, item]) =>
      HTTP_METHODS.filter((method) => item[method]).map((method) => ({
        method: method.toUpperCase(),
        path: path.replace('{account}', 'someone').replace(/\{[A-Za-z]+\}/g, randomUUID()),
      })),
    );
}

/** A body each POST or PATCH would accept, so a refusal cannot be the validation's. */
const BODIES: Record<string, unknown> = {
  'POST /admin/accounts': { name: `refused-${randomUUID()}` },
  'PATCH /admin/accounts/someone': { plan: 'growth' },
  'POST /admin/keys/deactivate': { api_key: 'sift-dev-x' },
  'POST /admin/accounts/someone/members': { email: 'someone@example.com' },
  'POST /admin/index/crawl': { url: 'https://example.com/' },
};

function call(gateway: TestGateway, operation: Operation, headers: Record<string, string>) {
  const body = BODIES[`${operation.method} ${operation.path}`] ?? (operation.method === 'GET' ? undefined : {});
  return callGateway(gateway.baseUrl, operation.method, operation.path, { headers, body });
}

// Who may call the admin API: only the operator credential (ADMIN_TOKEN), never a tenant's key.
describe('admin API access (real gateway)', () => {
  let gateway: TestGateway;
  let operations: Operation[];
  let tenantKey: string;
  const adminToken = randomBytes(24).toString('base64url');

  beforeAll(async () => {
    gateway = await startTestGateway({ ADMIN_TOKEN: adminToken, QUEUE_PREFIX: `test-${randomBytes(4).toString('hex')}` });
    operations = await adminOperations(gateway);
    // The most a tenant can be: the enterprise plan, a production key, the owner's rights.
    const account = await createTestAccount(gateway.prisma, { plan: 'enterprise', name: 'admin-access' });
    tenantKey = (await createTestKey(gateway.prisma, account.id, { environment: 'prod' })).apiKey;
  });

  afterAll(async () => {
    await gateway?.close();
  });

  it('lists every admin operation under the admin tag', () => {
    expect(operations.length).toBeGreaterThanOrEqual(19);
  });

  it('refuses every admin operation without a credential (401) and with a wrong token (401), in the spec error shape', async () => {
    for (const operation of operations) {
      const attempts: Array<Record<string, string>> = [{}, { Authorization: `Bearer ${adminToken}x` }, { Authorization: `Basic ${Buffer.from('operator:not-it').toString('base64')}` }];
      for (const headers of attempts) {
        const answer = await call(gateway, operation, headers);
        expect({ operation, status: answer.status, body: answer.body }).toEqual({ operation, status: 401, body: { detail: { error: OPERATOR_UNAUTHORIZED_MESSAGE } } });
        expect(answer.headers.get('www-authenticate')).toMatch(/^Bearer /);
      }
    }
  });

  it("refuses every admin operation with a tenant's valid API key (403), as bearer or Basic password", async () => {
    for (const operation of operations) {
      for (const headers of [{ Authorization: `Bearer ${tenantKey}` }, { Authorization: `Basic ${Buffer.from(`x:${tenantKey}`).toString('base64')}` }]) {
        const answer = await call(gateway, operation, headers);
        expect({ operation, status: answer.status, body: answer.body }).toEqual({ operation, status: 403, body: { detail: { error: TENANT_KEY_REFUSED_MESSAGE } } });
      }
    }
    // Nothing a refused request asked for happened, and nothing was put on the audit trail in the operator's name.
    expect(await gateway.prisma.account.count({ where: { name: { startsWith: 'refused-' } } })).toBe(0);
    expect(await gateway.prisma.adminAuditEvent.count({ where: { parameters: { path: ['name'], string_starts_with: 'refused-' } } })).toBe(0);
  });

  it('admits the token as a bearer or as a Basic password, and the tenant API does not take it as a key', async () => {
    expect((await callGateway(gateway.baseUrl, 'GET', '/admin/plans', { apiKey: adminToken })).status).toBe(200);
    const basic = await callGateway(gateway.baseUrl, 'GET', '/admin/plans', { headers: { Authorization: `Basic ${Buffer.from(`operator:${adminToken}`).toString('base64')}` } });
    expect(basic.status).toBe(200);
    const search = await callGateway(gateway.baseUrl, 'POST', '/search', { apiKey: adminToken, body: { query: 'anything' } });
    expect(search.status).toBe(401);
  });

  it('is off, saying how to turn it on, on a gateway without ADMIN_TOKEN', async () => {
    const plain = await startTestGateway({ ADMIN_TOKEN: '' });
    try {
      for (const operation of operations) {
        const attempts: Array<Record<string, string>> = [{}, { Authorization: `Bearer ${tenantKey}` }, { Authorization: 'Bearer ' }];
        for (const headers of attempts) {
          const answer = await call(plain, operation, headers);
          expect({ operation, status: answer.status, body: answer.body }).toEqual({ operation, status: 403, body: { detail: { error: ADMIN_TOKEN_UNSET_MESSAGE } } });
        }
      }
      expect(ADMIN_TOKEN_UNSET_MESSAGE).toMatch(/Set ADMIN_TOKEN/);
    } finally {
      await plain.close();
    }
  });
});
