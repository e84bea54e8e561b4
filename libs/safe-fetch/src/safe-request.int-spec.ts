import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { FetchError, safeRequest, startFixtureServer, type EgressPolicy, type FixtureServer } from './index';

// The operator's API server lives on 127.0.0.2 and is opened by the policy; the internal service on 127.0.0.1
// and ::1 must never receive a request.
const policy: EgressPolicy = { allowCidrs: ['127.0.0.2/32'] };

let api: FixtureServer;
let internal: FixtureServer;
const received: { method: string; contentType?: string; authorization?: string; body: string }[] = [];
const dribbles = new Set<NodeJS.Timeout>();

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let raw = '';
    request.setEncoding('utf8');
    request.on('data', (part: string) => (raw += part));
    request.on('end', () => resolve(raw));
  });
}

async function failure(url: string, options: Partial<Parameters<typeof safeRequest>[1]> = {}): Promise<FetchError> {
  try {
    await safeRequest(url, { method: 'POST', body: { ping: true }, policy, deadlineMs: 5000, ...options });
  } catch (error) {
    if (error instanceof FetchError) return error;
    throw error;
  }
  throw new Error(`expected ${url} to fail`);
}

beforeAll(async () => {
  internal = await startFixtureServer({ '/v1/chat/completions': (_request, response) => response.end('{}') }, ['127.0.0.1', '::1']);
  api = await startFixtureServer(
    {
      '/echo': (request: IncomingMessage, response: ServerResponse) => {
        void readBody(request).then((body) => {
          received.push({ method: request.method ?? '', contentType: request.headers['content-type'], authorization: request.headers.authorization, body });
          response.writeHead(201, { 'content-type': 'application/json; charset=utf-8', 'x-request-id': 'req-1' });
          response.end(JSON.stringify({ echoed: JSON.parse(body || 'null'), note: 'grüß dich' }));
        });
      },
      '/gzip-json': (_request, response) => {
        response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
        response.end(gzipSync(JSON.stringify({ compressed: true })));
      },
      '/redirect': (_request, response) => {
        response.writeHead(307, { location: `http://127.0.0.1:${internal.port}/v1/chat/completions` });
        response.end();
      },
      '/slow': (_request, response) => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.write('[');
        // Keeps the connection busy (an idle timer would never fire) while never finishing.
        const timer = setInterval(() => response.write('0,'), 20);
        dribbles.add(timer);
        response.on('close', () => {
          clearInterval(timer);
          dribbles.delete(timer);
        });
      },
      '/gzip-bomb': (_request, response) => {
        response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
        response.end(gzipSync(Buffer.alloc(8 * 1024 * 1024, ' '), { level: 9 }));
      },
    },
    ['127.0.0.2'],
  );
});

afterAll(async () => {
  for (const timer of dribbles) clearInterval(timer);
  await Promise.all([api.close(), internal.close()]);
});

describe('safeRequest', () => {
  it('sends the method, JSON body and headers, and returns status, headers and decoded text', async () => {
    received.length = 0;
    const response = await safeRequest(`${api.url}/echo`, {
      method: 'POST',
      body: { model: 'test', messages: [{ role: 'user', content: 'héllo' }] },
      headers: { Authorization: 'Bearer sk-test' },
      policy,
      deadlineMs: 5000,
    });
    expect(response.status).toBe(201);
    expect(response.headers['x-request-id']).toBe('req-1');
    expect(JSON.parse(response.text)).toEqual({ echoed: { model: 'test', messages: [{ role: 'user', content: 'héllo' }] }, note: 'grüß dich' });
    expect(received).toEqual([
      { method: 'POST', contentType: 'application/json', authorization: 'Bearer sk-test', body: JSON.stringify({ model: 'test', messages: [{ role: 'user', content: 'héllo' }] }) },
    ]);
  });

  it('decompresses a gzip answer', async () => {
    const response = await safeRequest(`${api.url}/gzip-json`, { method: 'GET', policy, deadlineMs: 5000 });
    expect(JSON.parse(response.text)).toEqual({ compressed: true });
  });

  it('refuses forbidden targets before a byte is sent', async () => {
    for (const url of [
      `http://127.0.0.1:${internal.port}/v1/chat/completions`,
      `http://localhost:${internal.port}/v1/chat/completions`,
      `http://[::1]:${internal.port}/v1/chat/completions`,
      `http://0x7f.1:${internal.port}/v1/chat/completions`,
      'http://169.254.169.254/latest/meta-data/',
    ]) {
      expect({ url, code: (await failure(url)).code }).toEqual({ url, code: 'blocked_address' });
    }
    expect((await failure('file:///etc/passwd')).code).toBe('invalid_url');
    expect(internal.requests).toEqual([]);
  });

  it('returns a redirect instead of re-sending the body to its Location', async () => {
    const response = await safeRequest(`${api.url}/redirect`, { method: 'POST', body: { secret: 1 }, policy, deadlineMs: 5000 });
    expect(response.status).toBe(307);
    expect(internal.requests).toEqual([]);
  });

  it('enforces the total deadline on a server that keeps trickling bytes', async () => {
    const startedAt = Date.now();
    expect((await failure(`${api.url}/slow`, { deadlineMs: 300 })).code).toBe('timeout');
    expect(Date.now() - startedAt).toBeLessThan(3000);
  });

  it('caps the decompressed answer', async () => {
    expect((await failure(`${api.url}/gzip-bomb`, { maxBytes: 1024 * 1024 })).code).toBe('too_large');
  });
});
