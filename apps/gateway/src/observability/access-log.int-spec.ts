import { callGateway } from '@sift/testing';
import { startAppProcess } from '../testing/app-process';
import { TEST_GATEWAY_ENV } from '../testing/gateway-harness';
import { type GatewayProcess, startGatewayProcess } from '../testing/gateway-process';

jest.setTimeout(120_000);

/** The gateway's JSON lines (anything else it printed is skipped). */
function jsonLines(gateway: GatewayProcess): Record<string, unknown>[] {
  return gateway
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

async function accessLine(gateway: GatewayProcess, requestId: string): Promise<Record<string, unknown> | undefined> {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const line = jsonLines(gateway).find((entry) => entry.message === 'request' && entry.requestId === requestId);
    if (line) return line;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return undefined;
}

// What an operator sees in the gateway's own output, as `npm start` runs it: one line per request, no alarming
// start-up lines, and a clear stop when its port is taken.
describe("the gateway's output", () => {
  let gateway: GatewayProcess;

  beforeAll(async () => {
    gateway = await startGatewayProcess();
  });

  afterAll(async () => {
    await gateway?.stop();
  });

  it('writes one access line per request with the request id, route, status and duration', async () => {
    const requestId = `trace-${Date.now()}`;
    const answer = await callGateway(gateway.baseUrl, 'POST', '/search', { body: { query: 'anything' }, headers: { 'X-Request-Id': requestId } });
    expect(answer.status).toBe(401);
    const line = await accessLine(gateway, requestId);
    expect(line).toEqual(expect.objectContaining({ level: 'info', service: 'gateway', method: 'POST', route: '/search', status: 401, requestId }));
    expect(typeof line?.durationMs).toBe('number');
    expect(jsonLines(gateway).filter((entry) => entry.message === 'request' && entry.requestId === requestId)).toHaveLength(1);

    const missing = `missing-${Date.now()}`;
    await callGateway(gateway.baseUrl, 'GET', '/no-such-route?secret=1', { headers: { 'X-Request-Id': missing } });
    // Unmatched routes are logged by path, never with the query string.
    expect(await accessLine(gateway, missing)).toEqual(expect.objectContaining({ route: '/no-such-route', status: 404 }));
    expect(gateway.output()).not.toContain('secret=1');
  });

  it('prints no PREVIEW-mode warning, at start or when the MCP tools are first listed', async () => {
    await callGateway(gateway.baseUrl, 'POST', '/mcp', {
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
      headers: { accept: 'application/json, text/event-stream' },
    });
    expect(gateway.output()).not.toMatch(/PREVIEW mode/);
  });

  it('stops with status 78 and a line naming PORT when its port is taken', async () => {
    const port = new URL(gateway.baseUrl).port;
    const second = startAppProcess('apps/gateway/src/main.ts', { ...TEST_GATEWAY_ENV, PORT: port }, /Sift gateway listening on /);
    await expect(second).rejects.toThrow(new RegExp(`exited with 78[\\s\\S]*port ${port} \\(PORT\\) is already in use, by another Sift or another program: set PORT to a free port`));
  });

  it('writes the access lines at the level ACCESS_LOG names, and drops those below SIFT_LOG_LEVEL', async () => {
    const warning = await startGatewayProcess({ ACCESS_LOG: 'warn', SIFT_LOG_LEVEL: 'log' });
    try {
      const probe = `probe-${Date.now()}`;
      const refused = `refused-${Date.now()}`;
      expect((await callGateway(warning.baseUrl, 'GET', '/health', { headers: { 'X-Request-Id': probe } })).status).toBe(200);
      expect((await callGateway(warning.baseUrl, 'POST', '/search', { body: { query: 'x' }, headers: { 'X-Request-Id': refused } })).status).toBe(401);
      expect(await accessLine(warning, refused)).toEqual(expect.objectContaining({ level: 'warn', route: '/search', status: 401 }));
      // A successful probe is logged at debug, below SIFT_LOG_LEVEL=log. Both lines are written synchronously to
      // one stream in the order the requests ended, so once the later line is there the earlier one would be too.
      expect(jsonLines(warning).filter((entry) => entry.requestId === probe)).toEqual([]);
    } finally {
      await warning.stop();
    }
  });

  it('writes no access lines with ACCESS_LOG=off', async () => {
    const quiet = await startGatewayProcess({ ACCESS_LOG: 'off' });
    try {
      const requestId = `quiet-${Date.now()}`;
      await callGateway(quiet.baseUrl, 'GET', '/health', { headers: { 'X-Request-Id': requestId } });
      await callGateway(quiet.baseUrl, 'POST', '/search', { body: { query: 'x' }, headers: { 'X-Request-Id': requestId } });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(jsonLines(quiet).filter((entry) => entry.message === 'request')).toEqual([]);
    } finally {
      await quiet.stop();
    }
  });
});
