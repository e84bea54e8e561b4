import { createServer } from 'node:http';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import { brotliCompressSync, constants, deflateRawSync, gzipSync } from 'node:zlib';
import iconv from 'iconv-lite';
import { assertPublicDestination, FetchError, safeFetch, startFixtureServer, type EgressPolicy, type FetchErrorCode, type FixtureServer } from './index';

// The "public" fixture lives on 127.0.0.2 and is opened by the policy; the "internal" service listens on
// 127.0.0.1 and ::1 (every loopback spelling) and must never receive a request.
const policy: EgressPolicy = { allowCidrs: ['127.0.0.2/32'] };
const html = (body: string) => `<!doctype html><html><head><title>Fixture</title></head><body>${body}</body></html>`;

let site: FixtureServer;
let internal: FixtureServer;
const dribbles = new Set<NodeJS.Timeout>();

async function failure(url: string, options: Partial<Parameters<typeof safeFetch>[1]> = {}): Promise<FetchError> {
  try {
    await safeFetch(url, { policy, deadlineMs: 5000, ...options });
  } catch (error) {
    if (error instanceof FetchError) return error;
    throw error;
  }
  throw new Error(`expected ${url} to fail`);
}

async function expectFailure(url: string, code: FetchErrorCode, options: Partial<Parameters<typeof safeFetch>[1]> = {}): Promise<FetchError> {
  const error = await failure(url, options);
  expect({ url, code: error.code }).toEqual({ url, code });
  return error;
}

beforeAll(async () => {
  internal = await startFixtureServer(
    {
      '/': (_request, response) => response.end('internal secret'),
      '/secret': (_request, response) => response.end('internal secret'),
    },
    ['127.0.0.1', '::1'],
  );
  const internalV4 = `http://127.0.0.1:${internal.port}`;
  const redirect = (location: string, status = 302) => (_request: unknown, response: import('node:http').ServerResponse) => {
    response.writeHead(status, { location });
    response.end();
  };
  const send = (contentType: string, body: Buffer | string, extraHeaders: Record<string, string> = {}) =>
    (_request: unknown, response: import('node:http').ServerResponse) => {
      response.writeHead(200, { 'content-type': contentType, ...extraHeaders });
      response.end(body);
    };
  const bomb = Buffer.alloc(64 * 1024 * 1024, 'a');
  site = await startFixtureServer(
    {
      '/page': send('text/html; charset=utf-8', html('<p>Hello, wörld</p>')),
      '/chain/3': redirect('/chain/2', 301),
      '/chain/2': redirect('/chain/1', 307),
      '/chain/1': redirect('/page', 308),
      '/loop': redirect('/loop'),
      '/no-location': (_request, response) => {
        response.writeHead(302);
        response.end();
      },
      '/not-modified-style': (_request, response) => {
        response.writeHead(300, { 'content-type': 'text/html' });
        response.end(html('choose'));
      },
      '/slow': (_request, response) => {
        response.writeHead(200, { 'content-type': 'text/html' });
        response.write('<!doctype html><p>');
        // Keeps the connection busy (an idle timer would never fire) while never finishing.
        const timer = setInterval(() => response.write('.'), 20);
        dribbles.add(timer);
        response.on('close', () => {
          clearInterval(timer);
          dribbles.delete(timer);
        });
      },
      '/gzip-bomb': send('text/html', gzipSync(bomb, { level: 9 }), { 'content-encoding': 'gzip' }),
      '/brotli-bomb': send('text/plain', brotliCompressSync(bomb, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } }), { 'content-encoding': 'br' }),
      '/huge': (_request, response) => {
        response.writeHead(200, { 'content-type': 'text/html' });
        const chunk = Buffer.alloc(1024 * 1024, 'x');
        let sent = 0;
        const pump = () => {
          while (sent < 40 && response.write(chunk)) sent += 1;
          if (sent >= 40) response.end();
          else response.once('drain', () => { sent += 1; pump(); });
        };
        pump();
      },
      '/gzip-page': send('text/html; charset=utf-8', gzipSync(html('<p>gzip body</p>')), { 'content-encoding': 'gzip' }),
      '/deflate-page': send('text/html; charset=utf-8', deflateRawSync(html('<p>raw deflate body</p>')), { 'content-encoding': 'deflate' }),
      '/brotli-page': send('text/html; charset=utf-8', brotliCompressSync(html('<p>brotli body</p>')), { 'content-encoding': 'br' }),
      '/corrupt-gzip': send('text/html', Buffer.from('definitely not gzip'), { 'content-encoding': 'gzip' }),
      '/image': send('image/png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0])),
      '/octets': send('application/octet-stream', Buffer.from([0x00, 0x01, 0x02, 0xff, 0xfe, 0x00, 0x10])),
      '/pdf': send('application/pdf', Buffer.from('%PDF-1.4\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n', 'latin1')),
      '/undeclared-pdf': send('application/octet-stream', Buffer.from('%PDF-1.7\n%%EOF\n', 'latin1')),
      '/json': send('application/json', JSON.stringify({ greeting: 'grüß dich' })),
      '/text': send('text/plain', Buffer.from('plain café', 'utf8')),
      '/latin1-header': send('text/html; charset=ISO-8859-1', iconv.encode(html('<p>café crème</p>'), 'latin1')),
      '/shift-jis-meta': send(
        'text/html',
        iconv.encode(`<!doctype html><html><head><meta charset="shift_jis"><title>日本語</title></head><body><p>こんにちは世界</p></body></html>`, 'shift_jis'),
      ),
      '/koi8-meta-http-equiv': send(
        'text/html',
        iconv.encode(`<html><head><meta http-equiv="Content-Type" content="text/html; charset=koi8-r"></head><body>Привет</body></html>`, 'koi8-r'),
      ),
      '/utf16-bom': send('text/html; charset=iso-8859-1', Buffer.concat([Buffer.from([0xff, 0xfe]), iconv.encode(html('<p>BOM wins: ünïcödé</p>'), 'utf-16le')])),
      '/undeclared-windows-1252': send('text/html', iconv.encode(html('<p>naïve “quotes”</p>'), 'windows-1252')),
      '/undeclared-utf8': send('text/html', Buffer.from(html('<p>naïve “quotes” 😀</p>'), 'utf8')),
      '/xml-declared-encoding': send('application/xml', iconv.encode(`<?xml version="1.0" encoding="ISO-8859-15"?><urlset><loc>€</loc></urlset>`, 'iso-8859-15')),
      '/to-internal': redirect(`${internalV4}/secret`),
      '/to-internal-v6': redirect(`http://[::1]:${internal.port}/secret`),
      '/to-localhost': redirect(`http://localhost:${internal.port}/secret`),
      '/to-metadata': redirect('http://169.254.169.254/latest/meta-data/'),
      '/to-file': redirect('file:///etc/passwd'),
      '/to-internal-after-hops': redirect('/to-internal'),
    },
    ['127.0.0.2'],
  );
});

afterAll(async () => {
  for (const timer of dribbles) clearInterval(timer);
  await Promise.all([site?.close(), internal?.close()]);
});

describe('safeFetch against loopback fixture servers', () => {
  it('fetches an allowed page and reports what it got', async () => {
    const resource = await safeFetch(`${site.url}/page`, { policy, deadlineMs: 5000 });
    expect(resource).toMatchObject({ status: 200, kind: 'html', mimeType: 'text/html', charset: 'utf-8', finalUrl: `${site.url}/page`, redirects: [] });
    expect(resource.text).toContain('Hello, wörld');
    expect(resource.elapsedMs).toBeGreaterThanOrEqual(0);
  });

  it('reaches a loopback fixture only when the policy opens its CIDR', async () => {
    const error = await expectFailure(`${site.url}/page`, 'blocked_address', { policy: { allowCidrs: [] } });
    expect(error.message).toMatch(/^127\.0\.0\.2 is not allowed/);
  });

  it('follows a redirect chain and records every hop', async () => {
    const resource = await safeFetch(`${site.url}/chain/3`, { policy, deadlineMs: 5000 });
    expect(resource.finalUrl).toBe(`${site.url}/page`);
    expect(resource.redirects).toEqual([`${site.url}/chain/3`, `${site.url}/chain/2`, `${site.url}/chain/1`]);
    expect(resource.text).toContain('Hello');
  });

  it('gives up after 10 redirects and on a redirect without Location', async () => {
    await expectFailure(`${site.url}/loop`, 'too_many_redirects');
    await expectFailure(`${site.url}/no-location`, 'redirect_without_location');
    await expectFailure(`${site.url}/not-modified-style`, 'redirect_without_location');
  });

  it('returns a 404 page for the caller to judge', async () => {
    const resource = await safeFetch(`${site.url}/missing`, { policy, deadlineMs: 5000 });
    expect(resource.status).toBe(404);
    expect(resource.text).toContain('Not found');
  });

  it('enforces a total deadline on a server that keeps trickling bytes', async () => {
    const startedAt = Date.now();
    const error = await expectFailure(`${site.url}/slow`, 'timeout', { deadlineMs: 300 });
    expect(Date.now() - startedAt).toBeLessThan(2000);
    expect(error.message).toMatch(/300 ms/);
  });

  it('bounds the connection time: a host that accepts TCP but never completes TLS fails after 3 s, not at the deadline', async () => {
    const silent = createTcpServer((socket) => socket.on('error', () => undefined));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.2', resolve));
    try {
      const startedAt = Date.now();
      const error = await expectFailure(`https://127.0.0.2:${(silent.address() as AddressInfo).port}/`, 'network', { deadlineMs: 20_000 });
      const tookMs = Date.now() - startedAt;
      expect(error.message).toMatch(/not established within 3 s/);
      expect(tookMs).toBeGreaterThanOrEqual(2_900);
      expect(tookMs).toBeLessThan(10_000);
    } finally {
      silent.close();
    }
  });

  it('honours the caller abort signal', async () => {
    const controller = new AbortController();
    const pending = safeFetch(`${site.url}/slow`, { policy, deadlineMs: 10_000, signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ code: 'network', message: expect.stringMatching(/cancelled/) });
  });

  it('caps decompressed bytes, so gzip and brotli bombs fail early', async () => {
    await expectFailure(`${site.url}/gzip-bomb`, 'too_large', { maxBytes: 1024 * 1024 });
    await expectFailure(`${site.url}/brotli-bomb`, 'too_large', { maxBytes: 1024 * 1024 });
    // The default cap (15 MB) applies as well.
    await expectFailure(`${site.url}/gzip-bomb`, 'too_large');
  });

  it('caps an uncompressed huge page at the default 15 MB', async () => {
    await expectFailure(`${site.url}/huge`, 'too_large');
  });

  it('decodes gzip, raw deflate and brotli bodies', async () => {
    for (const [path, expected] of [['/gzip-page', 'gzip body'], ['/deflate-page', 'raw deflate body'], ['/brotli-page', 'brotli body']]) {
      const resource = await safeFetch(`${site.url}${path}`, { policy, deadlineMs: 5000 });
      expect(resource.text).toContain(expected);
    }
    await expectFailure(`${site.url}/corrupt-gzip`, 'network');
  });

  it('routes content types and refuses binaries', async () => {
    await expectFailure(`${site.url}/image`, 'unsupported_content');
    await expectFailure(`${site.url}/octets`, 'unsupported_content');
    await expectFailure(`${site.url}/json`, 'unsupported_content', { accept: ['html'] });
    const pdf = await safeFetch(`${site.url}/pdf`, { policy, deadlineMs: 5000 });
    expect(pdf).toMatchObject({ kind: 'pdf', mimeType: 'application/pdf', text: '' });
    expect(pdf.body.subarray(0, 5).toString()).toBe('%PDF-');
    expect((await safeFetch(`${site.url}/undeclared-pdf`, { policy, deadlineMs: 5000 })).kind).toBe('pdf');
    const json = await safeFetch(`${site.url}/json`, { policy, deadlineMs: 5000 });
    expect(json.kind).toBe('json');
    expect(JSON.parse(json.text)).toEqual({ greeting: 'grüß dich' });
    expect(await safeFetch(`${site.url}/text`, { policy, deadlineMs: 5000 })).toMatchObject({ kind: 'text', text: 'plain café' });
  });

  it.each([
    ['/latin1-header', 'windows-1252', 'café crème'],
    ['/shift-jis-meta', 'shift_jis', 'こんにちは世界'],
    ['/koi8-meta-http-equiv', 'koi8-r', 'Привет'],
    ['/utf16-bom', 'utf-16le', 'BOM wins: ünïcödé'],
    ['/undeclared-windows-1252', 'windows-1252', 'naïve “quotes”'],
    ['/undeclared-utf8', 'utf-8', 'naïve “quotes” 😀'],
    ['/xml-declared-encoding', 'iso-8859-15', '<loc>€</loc>'],
  ])('detects the charset of %s as %s', async (path, charset, text) => {
    const resource = await safeFetch(`${site.url}${path}`, { policy, deadlineMs: 5000 });
    expect(resource.charset).toBe(charset);
    expect(resource.text).toContain(text);
  });

  it('reuses its connection to a server that announces a short keep-alive (timeout=1)', async () => {
    const server = createServer((_request, response) => response.end(html('<p>again</p>')));
    // Node announces this as `Keep-Alive: timeout=1`.
    server.keepAliveTimeout = 1_000;
    let connections = 0;
    server.on('connection', () => (connections += 1));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.2', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      // A request that starts later than the kept half second after the previous one (a stalled machine) may
      // find its socket closed, rightly; each such pause allows one more connection.
      let pauses = 0;
      let previousEnd: number | undefined;
      for (let page = 0; page < 10; page += 1) {
        if (previousEnd !== undefined && performance.now() - previousEnd > 400) pauses += 1;
        await expect(safeFetch(`http://127.0.0.2:${port}/page-${page}`, { policy, deadlineMs: 5000 })).resolves.toMatchObject({ status: 200 });
        previousEnd = performance.now();
      }
      // undici hands a socket back a turn after its response, so the second request may open a second one; no more.
      expect(connections).toBeLessThanOrEqual(2 + pauses);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('rejects non-http schemes and credentials in URLs', async () => {
    await expectFailure('file:///etc/passwd', 'invalid_url');
    await expectFailure('ftp://example.com/', 'invalid_url');
    await expectFailure(`http://user:secret@127.0.0.2:${site.port}/page`, 'invalid_url');
    await expectFailure('not a url', 'invalid_url');
    await expectFailure(`${site.url}/to-file`, 'invalid_url');
  });
});

describe('SSRF protection', () => {
  const forbidden = () => [
    `http://127.0.0.1:${internal.port}/secret`,
    `http://localhost:${internal.port}/secret`,
    `http://[::1]:${internal.port}/secret`,
    `http://2130706433:${internal.port}/secret`,
    `http://0x7f.1:${internal.port}/secret`,
    `http://0177.0.0.1:${internal.port}/secret`,
    `http://127.1:${internal.port}/secret`,
    `http://[::ffff:127.0.0.1]:${internal.port}/secret`,
    `http://[0:0:0:0:0:ffff:7f00:1]:${internal.port}/secret`,
    `http://169.254.169.254/latest/meta-data/`,
    `http://[fd00:ec2::254]/latest/meta-data/`,
    `http://100.64.0.1:${internal.port}/`,
    `http://10.0.0.1:${internal.port}/`,
    `http://0.0.0.0:${internal.port}/secret`,
  ];

  it('refuses every spelling of an internal address', async () => {
    for (const url of forbidden()) await expectFailure(url, 'blocked_address');
  });

  it('names the refused host, never the address a name resolved to', async () => {
    for (const url of [`http://localhost:${internal.port}/secret`, `${site.url}/to-localhost`]) {
      const error = await expectFailure(url, 'blocked_address');
      expect({ url, message: error.message }).toEqual({ url, message: expect.stringMatching(/^localhost is not allowed/) });
      expect(error.message).not.toMatch(/127\.0\.0\.1|::1/);
    }
    await expect(assertPublicDestination(`http://localhost:${internal.port}/`, policy)).rejects.toThrow(/^localhost is not allowed: only public internet addresses can be fetched$/);
  });

  it('re-checks every redirect hop', async () => {
    for (const path of ['/to-internal', '/to-internal-v6', '/to-localhost', '/to-metadata', '/to-internal-after-hops']) {
      await expectFailure(`${site.url}${path}`, 'blocked_address');
    }
  });

  it('fails the pre-check for forbidden destinations and passes it for allowed ones', async () => {
    for (const url of forbidden()) await expect(assertPublicDestination(url, policy)).rejects.toMatchObject({ code: 'blocked_address' });
    await expect(assertPublicDestination(`${site.url}/page`, policy)).resolves.toBeUndefined();
  });

  // Runs last in this file: the internal service saw none of the attempts above.
  it('never let a request reach the internal service', () => {
    expect(internal.requests).toEqual([]);
  });
});
