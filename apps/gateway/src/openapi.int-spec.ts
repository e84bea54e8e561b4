import { readFileSync } from 'node:fs';
import type { Type } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';
import * as contracts from '@sift/api-contracts';
import { SEARCH_LATENCY_BUDGETS } from '@sift/config';
import { callGateway } from '@sift/testing';
import { createRequestValidationPipe } from './http/request-validation.pipe';
import { TOOL_NAMES } from './mcp/mcp-tools';
import { API_KEY_SCHEME, HTTP_METHODS, OPENAPI_TAGS, OPERATOR_SCHEME } from './openapi';
import { buildOfflineOpenApiDocument, COMMITTED_OPENAPI_PATH, serializeOpenApiDocument } from './openapi-export';
import { startTestGateway, TestGateway } from './testing/gateway-harness';

const PUBLIC_PATHS = ['/health', '/metrics'];

/** The client method names, in the order Swagger UI and openapi.json list them: the data plane first. */
const OPERATION_IDS = [
  'search',
  'extract',
  'crawl',
  'map',
  'research',
  'getResearch',
  'feedback',
  'usage',
  'logs',
  'generateKeys',
  'deactivateKeys',
  'keyInfo',
  'listTeamMembers',
  'inviteTeamMember',
  'changeTeamMemberRole',
  'removeTeamMember',
  'mcp',
  'health',
  'adminListPlans',
  'adminListAccounts',
  'adminCreateAccount',
  'adminUpdateAccount',
  'adminListKeys',
  'adminCreateKey',
  'adminDeactivateKey',
  'adminDeactivateKeyByValue',
  'adminListMembers',
  'adminAddMember',
  'adminTransferOwnership',
  'adminImportDocuments',
  'adminCrawlSite',
  'adminRechunkDocuments',
  'adminResegmentDocuments',
  'adminEmbedChunks',
  'adminListJobs',
  'adminGetJob',
  'adminListAuditEvents',
];

interface DocumentedOperation {
  path: string;
  method: string;
  operationId?: string;
  tags?: string[];
  parameters?: Array<{ name: string; in: string }>;
  requestBody?: { content: Record<string, { schema?: { $ref?: string }; examples?: Record<string, { value: unknown }> }> };
  responses: Record<string, { content?: Record<string, { example?: unknown; examples?: Record<string, { value: unknown }> }> }>;
}

function operationsOf(document: OpenAPIObject): DocumentedOperation[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    HTTP_METHODS.filter((method) => item[method]).map((method) => ({ path, method, ...(item[method] as object) }) as DocumentedOperation),
  );
}

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

  it('documents the bearer scheme on every route except /health and /metrics, and the operator scheme alone on /admin', () => {
    expect(document.components?.securitySchemes?.[API_KEY_SCHEME]).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(document.components?.securitySchemes?.[OPERATOR_SCHEME]).toMatchObject({ type: 'http', scheme: 'bearer', description: expect.stringContaining('ADMIN_TOKEN') });
    const operations = Object.entries(document.paths).flatMap(([path, item]) =>
      HTTP_METHODS.filter((method) => item[method]).map((method) => ({ path, method, security: item[method]?.security })),
    );
    expect(operations.length).toBeGreaterThanOrEqual(11);
    for (const operation of operations) {
      const scheme = operation.path.startsWith('/admin/') ? OPERATOR_SCHEME : API_KEY_SCHEME;
      const expected = PUBLIC_PATHS.includes(operation.path) ? undefined : [{ [scheme]: [] }];
      expect(operation).toEqual({ path: operation.path, method: operation.method, security: expected });
    }
    for (const path of ['/usage', '/logs', '/feedback', '/generate-keys', '/deactivate-keys', '/key-info', '/team/members', '/team/members/{memberId}']) {
      expect(Object.keys(document.paths)).toContain(path);
    }
  });

  it('lists every operation once, under one declared tag, data plane first, with a readable unique operation id', () => {
    const operations = operationsOf(document);
    expect(operations.map((operation) => operation.operationId)).toEqual(OPERATION_IDS);
    expect(document.tags?.map((tag) => tag.name)).toEqual(OPENAPI_TAGS.map((tag) => tag.name));
    const tagNames: string[] = OPENAPI_TAGS.map((tag) => tag.name);
    for (const operation of operations) {
      expect({ operation: operation.operationId, tags: operation.tags }).toEqual({ operation: operation.operationId, tags: [expect.any(String)] });
      expect(tagNames).toContain(operation.tags?.[0]);
    }
    const tagRanks = operations.map((operation) => tagNames.indexOf(operation.tags?.[0] as string));
    expect(tagRanks).toEqual([...tagRanks].sort((left, right) => left - right));
  });

  it('describes the key as a Sift key, not a JWT', () => {
    const scheme = document.components?.securitySchemes?.[API_KEY_SCHEME];
    expect(scheme).not.toHaveProperty('bearerFormat');
    expect(scheme).toMatchObject({ description: expect.stringContaining('sift-prod-') });
  });

  it('documents the caller headers where the gateway reads them, and the keyless header on search and extract only', () => {
    const headersOf = (operationId: string) =>
      operationsOf(document)
        .find((operation) => operation.operationId === operationId)
        ?.parameters?.filter((parameter) => parameter.in === 'header')
        .map((parameter) => parameter.name) ?? [];
    const tracing = ['X-Project-ID', 'X-Session-Id', 'X-Human-Id'];
    for (const operationId of ['search', 'extract']) expect(headersOf(operationId)).toEqual(expect.arrayContaining([...tracing, 'X-Service-Access-Mode']));
    for (const operationId of ['crawl', 'map', 'research']) {
      expect(headersOf(operationId)).toEqual(expect.arrayContaining(tracing));
      expect(headersOf(operationId)).not.toContain('X-Service-Access-Mode');
    }
    expect(headersOf('usage')).toContain('X-Project-ID');
    expect(headersOf('feedback')).toContain('X-Session-Id');
  });

  it('every request example passes the validation pipe of its body type, and the search example sets no date window', async () => {
    const pipe = createRequestValidationPipe();
    const examples = operationsOf(document).flatMap((operation) => {
      const media = operation.requestBody?.content['application/json'];
      // The MCP body is JSON-RPC, not one of the contracts' DTOs.
      if (!media?.schema?.$ref) return [];
      const schemaName = media.schema.$ref.split('/').pop() as keyof typeof contracts;
      return Object.values(media.examples ?? {}).map((example) => ({ operationId: operation.operationId, dto: contracts[schemaName] as Type<object>, value: example.value }));
    });
    expect(examples.map((example) => example.operationId)).toEqual(expect.arrayContaining(['search', 'extract', 'crawl', 'map', 'research', 'feedback', 'logs']));
    for (const example of examples) {
      expect(typeof example.dto).toBe('function');
      await expect(pipe.transform(example.value, { type: 'body', metatype: example.dto })).resolves.toBeInstanceOf(example.dto);
    }
    const search = examples.find((example) => example.operationId === 'search')?.value;
    expect(search).toEqual(contracts.SEARCH_REQUEST_EXAMPLE);
    for (const windowField of ['time_range', 'start_date', 'end_date']) expect(search).not.toHaveProperty(windowField);
  });

  it('says of the extract, crawl and map examples that they fetch a public site and need the web', () => {
    const exampleOf = (operationId: string) => {
      const media = operationsOf(document).find((operation) => operation.operationId === operationId)?.requestBody?.content['application/json'];
      return (media?.examples as Record<string, { summary?: string; description?: string }> | undefined)?.[operationId];
    };
    const fetched = { extract: contracts.EXTRACT_REQUEST_EXAMPLE.urls[0], crawl: contracts.CRAWL_REQUEST_EXAMPLE.url, map: contracts.MAP_REQUEST_EXAMPLE.url };
    for (const [operationId, url] of Object.entries(fetched)) {
      const example = exampleOf(operationId);
      expect({ operationId, summary: example?.summary }).toEqual({ operationId, summary: expect.stringMatching(/public site.*needs the web/) });
      expect({ operationId, description: example?.description }).toEqual({ operationId, description: expect.stringContaining(`Fetches ${url}, a public site`) });
    }
    expect(exampleOf('search')?.summary).toBe('Try it out');
  });

  it("names the default latency budgets in search's timeout as the deployment's defaults are", () => {
    const schema = document.components?.schemas?.SearchRequestDto as { properties?: Record<string, { description?: string }> } | undefined;
    expect(schema?.properties?.timeout?.description).toContain(`basic ${SEARCH_LATENCY_BUDGETS.basicMs / 1000} s, advanced ${SEARCH_LATENCY_BUDGETS.advancedMs / 1000} s`);
  });

  it("names in /mcp's summary exactly the tools the MCP server registers", () => {
    const mcp = operationsOf(document).find((operation) => operation.operationId === 'mcp') as DocumentedOperation & { summary?: string; description?: string };
    const named = `${mcp.summary ?? ''} ${mcp.description ?? ''}`.match(/\btavily_[a-z_]+/g) ?? [];
    expect(named).toHaveLength(TOOL_NAMES.length);
    expect([...named].sort()).toEqual([...TOOL_NAMES].sort());
  });

  it('shows an error body in the spec shape for every error status, and the keyless envelope beside the keyed 429 on keyless routes', () => {
    for (const operation of operationsOf(document)) {
      for (const [status, response] of Object.entries(operation.responses)) {
        if (Number(status) < 400 || operation.operationId === 'health') continue;
        const media = response.content?.['application/json'];
        const bodies = media?.examples ? Object.entries(media.examples).map(([name, example]) => ({ name, value: example.value })) : [{ name: 'example', value: media?.example }];
        for (const body of bodies) {
          const expected = body.name === 'keyless' ? { error: expect.objectContaining({ code: expect.any(String), next_actions: expect.any(Array) }) } : { detail: { error: expect.any(String) } };
          expect({ route: `${operation.operationId} ${status} ${body.name}`, body: body.value }).toEqual({ route: `${operation.operationId} ${status} ${body.name}`, body: expected });
        }
      }
    }
    const keylessRateLimit = operationsOf(document).find((operation) => operation.operationId === 'search')?.responses['429'].content?.['application/json'].examples;
    expect(Object.keys(keylessRateLimit ?? {})).toEqual(['keyed', 'keyless']);
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
