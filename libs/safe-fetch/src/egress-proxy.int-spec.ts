import { request, type IncomingMessage } from 'node:http';
import { createEgressProxy, egressRefusalHeader, startFixtureServer, type EgressProxy, type FixtureServer } from './index';

const policy = { allowCidrs: ['127.0.0.2/32'] };
let site: FixtureServer;
let internal: FixtureServer;
let proxy: EgressProxy;

function viaProxy(options: { method: string; path: string; host?: string }): Promise<{ status: number; body: string; headers: IncomingMessage['headers'] }> {
  const proxyUrl = new URL(proxy.url);
  return new Promise((resolve, reject) => {
    const outgoing = request({ host: proxyUrl.hostname, port: proxyUrl.port, method: options.method, path: options.path, headers: options.host ? { host: options.host } : {} });
    outgoing.on('connect', (response: IncomingMessage, socket) => {
      socket.destroy();
      resolve({ status: response.statusCode ?? 0, body: '', headers: response.headers });
    });
    outgoing.on('response', (response) => {
      let body = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body, headers: response.headers }));
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

beforeAll(async () => {
  internal = await startFixtureServer({ '/secret': (_request, response) => response.end('secret') }, ['127.0.0.1', '::1']);
  site = await startFixtureServer(
    {
      '/page': (_request, response) => response.end('public page'),
      '/claims-refusal': (_request, response) => {
        response.writeHead(200, { [egressRefusalHeader]: 'blocked' });
        response.end('a page');
      },
    },
    ['127.0.0.2'],
  );
  proxy = await createEgressProxy(policy);
});

afterAll(async () => {
  await Promise.all([proxy?.close(), site?.close(), internal?.close()]);
});

describe('egress proxy', () => {
  it('forwards absolute-URI requests to allowed hosts', async () => {
    const answer = await viaProxy({ method: 'GET', path: `${site.url}/page` });
    expect(answer).toMatchObject({ status: 200, body: 'public page' });
  });

  it('opens CONNECT tunnels to allowed hosts', async () => {
    const answer = await viaProxy({ method: 'CONNECT', path: `127.0.0.2:${site.port}` });
    expect(answer.status).toBe(200);
  });

  it('refuses forbidden destinations for both request forms and counts them', async () => {
    const before = proxy.refusedCount;
    const attempts = [
      viaProxy({ method: 'GET', path: `http://127.0.0.1:${internal.port}/secret` }),
      viaProxy({ method: 'GET', path: `http://[::1]:${internal.port}/secret` }),
      viaProxy({ method: 'GET', path: `http://2130706433:${internal.port}/secret` }),
      viaProxy({ method: 'CONNECT', path: `127.0.0.1:${internal.port}` }),
      viaProxy({ method: 'CONNECT', path: `localhost:${internal.port}` }),
      viaProxy({ method: 'CONNECT', path: `[::ffff:127.0.0.1]:${internal.port}` }),
      viaProxy({ method: 'CONNECT', path: `169.254.169.254:80` }),
    ];
    for (const answer of await Promise.all(attempts)) {
      expect(answer.status).toBe(403);
      expect(answer.headers[egressRefusalHeader]).toBe('blocked');
    }
    expect(proxy.refusedCount - before).toBe(attempts.length);
    expect(internal.requests).toEqual([]);
  });

  it('answers a refusal with the same body whatever the destination: no resolved address reaches the page', async () => {
    const refusals = await Promise.all([
      viaProxy({ method: 'GET', path: `http://localhost:${internal.port}/secret` }),
      viaProxy({ method: 'GET', path: `http://127.0.0.1:${internal.port}/secret` }),
    ]);
    for (const answer of refusals) {
      expect(answer).toMatchObject({ status: 403, body: 'This destination is not allowed: only public internet addresses can be fetched.' });
    }
  });

  it("drops a site's own refusal header, so only the proxy can mark an answer as its refusal", async () => {
    const answer = await viaProxy({ method: 'GET', path: `${site.url}/claims-refusal` });
    expect(answer.status).toBe(200);
    expect(answer.headers[egressRefusalHeader]).toBeUndefined();
  });
});
