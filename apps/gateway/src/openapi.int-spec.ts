import { readFileSync } from 'node:fs';
import type { OpenAPIObject } from '@nestjs/swagger';
import { callGateway } from '@sift/testing';
import { API_KEY_SCHEME } from './openapi';
import { buildOfflineOpenApiDocument, COMMITTED_OPENAPI_PATH, serializeOpenApiDocument } from './openapi-export';
import { startTestGateway, TestGateway } from './testing/gateway-harness';

const PUBLIC_PATHS = ['/health', '/metrics'];
const HTTP_METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

describe('openapi.json', () => {
  let document: OpenAPIObject;

  beforeAll(async () => {
    document = await buildOfflineOpenApiDocument();
  });

  it('the committed openapi.json matches the routes (if this fails: run npm run openapi and commit the result)', () => {
    const committed = readFileSync(COMMITTED_OPENAPI_PATH, 'utf8');
    expect({ file: 'openapi.json, regenerate with: npm run openapi', text: committed }).toEqual({
      file: 'openapi.json, regenerate with: npm run openapi',
      text: serializeOpenApiDocument(document),
    });
  });

  it('documents the bearer scheme on every route except /health and /metrics', () => {
    expect(document.components?.securitySchemes?.[API_KEY_SCHEME]).toMatchObject({ type: 'http', scheme: 'bearer' });
    const operations = Object.entries(document.paths).flatMap(([path, item]) =>
      HTTP_METHODS.filter((method) => item[method]).map((method) => ({ path, method, security: item[method]?.security })),
    );
    expect(operations.length).toBeGreaterThanOrEqual(11);
    for (const operation of operations) {
      const expected = PUBLIC_PATHS.includes(operation.path) ? undefined : [{ [API_KEY_SCHEME]: [] }];
      expect(operation).toEqual({ path: operation.path, method: operation.method, security: expected });
    }
    for (const path of ['/usage', '/logs', '/feedback', '/generate-keys', '/deactivate-keys', '/key-info', '/team/members', '/team/members/{memberId}']) {
      expect(Object.keys(document.paths)).toContain(path);
    }
  });

  describe('served by the running gateway', () => {
    let gateway: TestGateway;

    beforeAll(async () => {
      gateway = await startTestGateway();
    });

    afterAll(async () => {
      await gateway.close();
    });

    it('serves the same document at /openapi.json and Swagger UI at /docs', async () => {
      const served = await callGateway(gateway.baseUrl, 'GET', '/openapi.json');
      expect(served.status).toBe(200);
      expect(served.body).toEqual(JSON.parse(serializeOpenApiDocument(document)));
      const docs = await callGateway<string>(gateway.baseUrl, 'GET', '/docs');
      expect(docs.status).toBe(200);
      expect(docs.headers.get('content-type')).toMatch(/text\/html/);
      expect(docs.body).toContain('<title>Sift API</title>');
    });
  });
});
