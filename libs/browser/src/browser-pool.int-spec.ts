import type { ServerResponse } from 'node:http';
import { FetchError, startFixtureServer, type EgressPolicy, type FetchErrorCode, type FixtureServer } from '@sift/safe-fetch';
import { BrowserPool, PageMemoryExceededError, RenderSessions } from './index';

jest.setTimeout(60_000);

// The "public" site is 127.0.0.2, opened by the policy; the internal service answers on 127.0.0.1 and ::1.
const policy: EgressPolicy = { allowCidrs: ['127.0.0.2/32'] };

let site: FixtureServer;
let internal: FixtureServer;
let pool: BrowserPool;

const sendHtml = (body: string, headers: Record<string, string> = {}) => (_request: unknown, response: ServerResponse) => {
  response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...headers });
  response.end(body);
};
const redirect = (location: () => string) => (_request: unknown, response: ServerResponse) => {
  response.writeHead(302, { location: location() });
  response.end();
};

async function renderFailure(url: string, renderer: BrowserPool = pool, deadlineMs = 10_000): Promise<FetchError> {
  try {
    await renderer.render(url, { deadlineMs });
  } catch (error) {
    if (error instanceof FetchError) return error;
    throw error;
  }
  throw new Error(`expected ${url} to fail`);
}

async function expectRenderFailure(url: string, code: FetchErrorCode, renderer?: BrowserPool, deadlineMs?: number): Promise<void> {
  const error = await renderFailure(url, renderer, deadlineMs);
  expect({ url, code: error.code, message: error.message }).toEqual({ url, code, message: expect.any(String) });
}

beforeAll(async () => {
  internal = await startFixtureServer(
    {
      '/secret': sendHtml('<title>secret</title>internal secret'),
      '/pixel.png': sendHtml('not really a png'),
      '/script.js': sendHtml('document.title = "pwned"'),
      '/api': sendHtml('{}'),
    },
    ['127.0.0.1', '::1'],
  );
  const internalPort = () => internal.port;
  site = await startFixtureServer(
    {
      '/page': sendHtml(
        `<!doctype html><html><head><title>Static title</title></head><body><main id="main">server text</main>
         <script>document.title = 'Rendered title';
           document.getElementById('main').insertAdjacentHTML('beforeend', '<p>added by script</p>');</script></body></html>`,
      ),
      '/redirect': redirect(() => '/page'),
      '/to-internal': redirect(() => `http://127.0.0.1:${internalPort()}/secret`),
      '/to-internal-v6': redirect(() => `http://[::1]:${internalPort()}/secret`),
      '/to-internal-https': redirect(() => `https://127.0.0.1:${internalPort()}/secret`),
      '/to-localhost': redirect(() => `http://localhost:${internalPort()}/secret`),
      '/subresources': (_request, response) =>
        sendHtml(
          `<!doctype html><title>Subresources</title><p>page with internal subresources</p>
           <img src="http://127.0.0.1:${internalPort()}/pixel.png">
           <img src="https://127.0.0.1:${internalPort()}/pixel.png">
           <script src="http://[::1]:${internalPort()}/script.js"></script>
           <iframe src="http://localhost:${internalPort()}/secret"></iframe>
           <script>fetch('http://2130706433:${internalPort()}/api').catch(() => {});
             new Image().src = 'http://0x7f.1:${internalPort()}/pixel.png';</script>`,
        )(_request, response),
      '/fonts-and-media': sendHtml(
        `<!doctype html><title>Media</title><style>@font-face { font-family: F; src: url(/font.woff2); } body { font-family: F; }</style>
         <p>text</p><video src="/movie.mp4" autoplay muted></video><audio src="/sound.mp3" autoplay muted></audio>`,
      ),
      '/service-worker': sendHtml(
        `<!doctype html><title>SW</title><script>navigator.serviceWorker && navigator.serviceWorker.register('/sw.js').catch(() => {});</script>`,
      ),
      '/sw.js': (_request, response) => {
        response.writeHead(200, { 'content-type': 'text/javascript' });
        response.end('self.addEventListener("fetch", () => {});');
      },
      '/set-cookie': sendHtml('<!doctype html><title>Cookie</title><p>a cookie is set</p>', { 'set-cookie': 'visit=first; Path=/' }),
      // The Cookie header the page was asked with, as its text.
      '/cookie': (request, response) => sendHtml(`<!doctype html><title>Cookie</title><p>cookie: [${request.headers.cookie ?? ''}]</p>`)(request, response),
      // A page whose script comes from a file a browser may keep for ten minutes, as a site's bundle.
      '/uses-bundle': sendHtml('<!doctype html><title>Bundle</title><p id="out">shell</p><script src="/bundle.js"></script>'),
      '/bundle.js': (_request, response) => {
        response.writeHead(200, { 'content-type': 'text/javascript', 'cache-control': 'public, max-age=600' });
        response.end('document.getElementById("out").textContent = "written by the bundle";');
      },
      '/never-answers': () => undefined,
      // The load event never comes: a render lasts until its deadline unless something stops it.
      '/stalled-load': sendHtml('<!doctype html><title>Stalled</title><p>waiting</p><img src="/never-answers">'),
      '/big-dom': sendHtml(
        `<!doctype html><title>Big</title><script>for (let i = 0; i < 5000; i++) document.write('<div>' + i + '</div>');</script>`,
      ),
      '/download': (_request, response) => {
        response.writeHead(200, { 'content-type': 'application/zip', 'content-disposition': 'attachment; filename="a.zip"' });
        response.end(Buffer.alloc(64));
      },
    },
    ['127.0.0.2'],
  );
  pool = new BrowserPool({ policy, maxDomNodes: 2000 });
});

afterAll(async () => {
  await pool?.close();
  await Promise.all([site?.close(), internal?.close()]);
});

describe('BrowserPool rendering', () => {
  it('renders a page, scripts included', async () => {
    const page = await pool.render(`${site.url}/page`, { deadlineMs: 15_000 });
    expect(page).toMatchObject({ status: 200, title: 'Rendered title', finalUrl: `${site.url}/page`, requestedUrl: `${site.url}/page` });
    expect(page.html).toContain('added by script');
  });

  it('follows redirects to the final URL', async () => {
    const page = await pool.render(`${site.url}/redirect`, { deadlineMs: 10_000 });
    expect(page.finalUrl).toBe(`${site.url}/page`);
  });

  it('reports a 404 with its status', async () => {
    const page = await pool.render(`${site.url}/nowhere`, { deadlineMs: 10_000 });
    expect(page.status).toBe(404);
    expect(page.title).toBe('Not found');
  });

  it('skips fonts and media and blocks service workers', async () => {
    await pool.render(`${site.url}/fonts-and-media`, { deadlineMs: 10_000 });
    await pool.render(`${site.url}/service-worker`, { deadlineMs: 10_000 });
    const fetched = site.requests.join('\n');
    expect(fetched).toContain('GET /fonts-and-media');
    expect(fetched).not.toMatch(/font\.woff2|movie\.mp4|sound\.mp3|sw\.js/);
  });

  it('stops at the page deadline', async () => {
    const startedAt = Date.now();
    await expectRenderFailure(`${site.url}/never-answers`, 'timeout', pool, 1500);
    expect(Date.now() - startedAt).toBeLessThan(5000);
  });

  it('refuses a DOM larger than the cap', async () => {
    await expectRenderFailure(`${site.url}/big-dom`, 'too_large');
  });

  it('does not download files', async () => {
    const error = await renderFailure(`${site.url}/download`);
    expect(['unsupported_content', 'network']).toContain(error.code);
  });

  it('replaces the browser after pagesPerBrowser pages', async () => {
    const recycling = new BrowserPool({ policy, pagesPerBrowser: 2, maxConcurrentPages: 1 });
    try {
      for (let index = 0; index < 3; index += 1) await recycling.render(`${site.url}/page`, { deadlineMs: 15_000 });
      expect(recycling.launchedBrowserCount).toBe(2);
      expect(recycling.openBrowserCount).toBe(1);
    } finally {
      await recycling.close();
    }
  });
});

describe('BrowserPool sessions', () => {
  const cookieSeen = async (render: (url: string, options: { deadlineMs: number }) => Promise<{ html: string }>) =>
    /cookie: \[([^\]]*)\]/.exec((await render(`${site.url}/cookie`, { deadlineMs: 10_000 })).html)?.[1];

  it("renders a session's pages in one context: a cookie its first page set is sent by the next, and by nothing else", async () => {
    const session = pool.openSession();
    const other = pool.openSession();
    try {
      await session.render(`${site.url}/set-cookie`, { deadlineMs: 10_000 });
      expect(await cookieSeen(session.render)).toBe('visit=first');
      expect(await cookieSeen(other.render)).toBe('');
      expect(await cookieSeen((url, options) => pool.render(url, options))).toBe('');
    } finally {
      await Promise.all([session.close(), other.close()]);
    }
  });

  it('keeps its context when one of its pages runs past its deadline: only that page is closed', async () => {
    const session = pool.openSession();
    try {
      await session.render(`${site.url}/set-cookie`, { deadlineMs: 10_000 });
      await expect(session.render(`${site.url}/never-answers`, { deadlineMs: 1500 })).rejects.toMatchObject({ code: 'timeout' });
      expect(await cookieSeen(session.render)).toBe('visit=first');
    } finally {
      await session.close();
    }
  });

  it("shares the HTTP cache among a session's pages: a site's script is fetched once, while fonts and media stay refused", async () => {
    const bundleFetches = () => site.requests.filter((request) => request === 'GET /bundle.js').length;
    const before = bundleFetches();
    const session = pool.openSession();
    try {
      for (let index = 0; index < 2; index += 1) expect((await session.render(`${site.url}/uses-bundle`, { deadlineMs: 10_000 })).html).toContain('written by the bundle');
      await session.render(`${site.url}/fonts-and-media`, { deadlineMs: 10_000 });
      expect(bundleFetches() - before).toBe(1);
      expect(site.requests.join('\n')).not.toMatch(/font\.woff2|movie\.mp4|sound\.mp3/);
      // A render outside the session has a cache of its own.
      await pool.render(`${site.url}/uses-bundle`, { deadlineMs: 10_000 });
      expect(bundleFetches() - before).toBe(2);
    } finally {
      await session.close();
    }
  });

  it("renders a key's pages in one session and another key's in another", async () => {
    const sessions = new RenderSessions(pool, 60_000);
    const render = (key: string) => (url: string, options: { deadlineMs: number }) => sessions.render(key, url, options);
    try {
      await sessions.render('request-a', `${site.url}/set-cookie`, { deadlineMs: 10_000 });
      expect(await cookieSeen(render('request-a'))).toBe('visit=first');
      expect(await cookieSeen(render('request-b'))).toBe('');
      expect(sessions.openCount).toBe(2);
    } finally {
      await sessions.close();
    }
    expect(sessions.openCount).toBe(0);
  });

  it("closes a key's session once it has had no render for its idle time: the key then starts a new one", async () => {
    const sessions = new RenderSessions(pool, 200);
    try {
      await sessions.render('request-a', `${site.url}/set-cookie`, { deadlineMs: 10_000 });
      for (const startedAt = Date.now(); sessions.openCount > 0 && Date.now() - startedAt < 5_000; ) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(sessions.openCount).toBe(0);
      expect(await cookieSeen((url, options) => sessions.render('request-a', url, options))).toBe('');
    } finally {
      await sessions.close();
    }
  });

  it('moves to the new browser when its browser is recycled, and refuses renders once closed', async () => {
    const recycling = new BrowserPool({ policy, pagesPerBrowser: 2, maxConcurrentPages: 1 });
    const session = recycling.openSession();
    try {
      for (let index = 0; index < 3; index += 1) expect((await session.render(`${site.url}/page`, { deadlineMs: 15_000 })).html).toContain('added by script');
      expect(recycling.launchedBrowserCount).toBe(2);
      expect(recycling.openBrowserCount).toBe(1);
      await session.close();
      await expect(session.render(`${site.url}/page`, { deadlineMs: 15_000 })).rejects.toThrow('The render session is closed');
    } finally {
      await recycling.close();
    }
  });
});

describe('BrowserPool SSRF protection', () => {
  const forbidden = () => [
    `http://127.0.0.1:${internal.port}/secret`,
    `http://localhost:${internal.port}/secret`,
    `http://[::1]:${internal.port}/secret`,
    `http://2130706433:${internal.port}/secret`,
    `http://0x7f.1:${internal.port}/secret`,
    `http://[::ffff:127.0.0.1]:${internal.port}/secret`,
    `http://169.254.169.254/latest/meta-data/`,
  ];

  it('refuses internal addresses in every spelling', async () => {
    for (const url of forbidden()) await expectRenderFailure(url, 'blocked_address');
  });

  it('refuses a redirect from an allowed host to a forbidden one (the proxy decides)', async () => {
    for (const path of ['/to-internal', '/to-internal-v6', '/to-internal-https', '/to-localhost']) {
      await expectRenderFailure(`${site.url}${path}`, 'blocked_address');
    }
  });

  it('lets a page load while its internal subresources are refused', async () => {
    const page = await pool.render(`${site.url}/subresources`, { deadlineMs: 10_000 });
    expect(page.title).toBe('Subresources');
  });

  it('a loopback site is unreachable when the policy does not open it', async () => {
    const closed = new BrowserPool({ policy: { allowCidrs: [] } });
    try {
      await expectRenderFailure(`${site.url}/page`, 'blocked_address', closed);
    } finally {
      await closed.close();
    }
  });

  it('fails a render at once when its browser passes the memory cap, and closes that browser', async () => {
    // Any Chromium holds more than 1 MB: the first measurement during the render passes the cap.
    const small = new BrowserPool({ policy, maxBrowserMemoryBytes: 1024 * 1024 });
    try {
      const startedAt = performance.now();
      const error = await renderFailure(`${site.url}/stalled-load`, small, 15_000);
      expect(error).toBeInstanceOf(PageMemoryExceededError);
      expect(error.message).toMatch(/^The browser grew past 1 MB of memory/);
      expect(performance.now() - startedAt).toBeLessThan(10_000);
      expect(small.openBrowserCount).toBe(0);
    } finally {
      await small.close();
    }
  });

  // Runs last in this file: nothing above reached the internal service.
  it('never let a request reach the internal service', () => {
    expect(internal.requests).toEqual([]);
  });
});
