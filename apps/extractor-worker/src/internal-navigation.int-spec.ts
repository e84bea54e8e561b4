import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { BrowserPool } from '@sift/browser';
import type { ExtractUrlPayload } from '@sift/queue-contracts';
import { type EgressPolicy, type FixtureServer, startFixtureServer } from '@sift/safe-fetch';
import { ContentParsingPool } from '@sift/task-pool';
import { type ExtractionOutcome, ExtractionService } from './extraction.service';

// Chromium's first launch alone can take several seconds.
jest.setTimeout(60_000);

// The page is on 127.0.0.2, the only address the policy opens; `localhost` resolves to 127.0.0.1, which it does not
// (issue #16, item 6: the proxy's refusal, with the resolved address, came back as the page's content).
const policy: EgressPolicy = { allowCidrs: ['127.0.0.2/32'] };
const internalSecret = 'internal secret of the loopback service';

function html(body: string) {
  return (_request: unknown, response: ServerResponse) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(body);
  };
}

describe('an advanced extract of a page that navigates to an internal name', () => {
  let internal: FixtureServer;
  let site: FixtureServer;
  let browser: BrowserPool;
  let parser: ContentParsingPool;
  let service: ExtractionService;
  const unexpectedErrors: unknown[] = [];
  const filler = '<p>' + 'A public page with enough text to be an article before it navigates away. '.repeat(5) + '</p>';

  beforeAll(async () => {
    internal = await startFixtureServer({ '/': html(`<title>internal</title><p>${internalSecret}</p>`) }, ['127.0.0.1']);
    const internalUrl = (scheme = 'http') => `${scheme}://localhost:${internal.port}/`;
    site = await startFixtureServer(
      {
        '/redirect': (_request, response) => {
          response.writeHead(302, { location: internalUrl() });
          response.end();
        },
        '/script': html(`<!doctype html><html><head><title>Navigating</title><script>location.replace(${JSON.stringify(internalUrl())});</script></head><body>${filler}</body></html>`),
        '/script-after-load': html(
          `<!doctype html><html><head><title>Navigating</title></head><body>${filler}
           <script>addEventListener('load', () => location.assign(${JSON.stringify(internalUrl())}));</script></body></html>`,
        ),
        '/meta-refresh': html(`<!doctype html><html><head><title>Refreshing</title><meta http-equiv="refresh" content="0;url=${internalUrl()}"></head><body>${filler}</body></html>`),
        '/script-https': html(`<!doctype html><html><head><title>Navigating</title><script>location.replace(${JSON.stringify(internalUrl('https'))});</script></head><body>${filler}</body></html>`),
        '/article': html(`<!doctype html><html><head><title>Public article</title></head><body><article>${filler}</article></body></html>`),
      },
      ['127.0.0.2'],
    );
    browser = new BrowserPool({ policy, maxConcurrentPages: 2 });
    parser = await ContentParsingPool.start({ threads: 1, deadlineMs: 15_000, maxHeapMb: 256, maxQueue: 32, maxPdfPages: 200 });
    service = new ExtractionService({ policy, browser, parser, onError: (error) => unexpectedErrors.push(error) });
  });

  afterAll(async () => {
    await Promise.allSettled([browser?.close(), parser?.close(), site?.close(), internal?.close()]);
  });

  const extract = (path: string): Promise<ExtractionOutcome> => {
    const payload: ExtractUrlPayload = {
      requestId: randomUUID(),
      accountId: 'keyless',
      url: `${site.url}${path}`,
      extractDepth: 'advanced',
      format: 'markdown',
      timeoutMs: 20_000,
      includeImages: false,
      includeFavicon: false,
      chunksPerSource: 3,
    };
    return service.extract(payload);
  };

  it('fails, without the address the name resolved to, however the page navigates', async () => {
    for (const path of ['/redirect', '/script', '/script-after-load', '/meta-refresh', '/script-https']) {
      const result = await extract(path);
      const shown = JSON.stringify(result);
      // A meta refresh or a script run after the load event navigates once the page has loaded: on a loaded machine the
      // render may be read before that, and the page as it stood (its own public text) is then the answer. What must
      // never happen is the internal page, or its address, in the answer.
      const readBeforeLeaving = (path === '/meta-refresh' || path === '/script-after-load') && result.ok && result.content.includes('A public page with enough text');
      expect({ path, ok: result.ok, leaksAddress: shown.includes('127.0.0.1'), leaksSecret: shown.includes(internalSecret) }).toEqual({
        path,
        ok: readBeforeLeaving,
        leaksAddress: false,
        leaksSecret: false,
      });
      if (!result.ok) expect({ path, error: result.error }).toEqual({ path, error: expect.stringMatching(/^(URL is not supported|Could not connect: )/) });
    }
    expect(unexpectedErrors).toEqual([]);
  });

  it('still extracts a public page that stays put', async () => {
    const result = await extract('/article');
    expect(result).toMatchObject({ ok: true, page: { title: 'Public article' } });
  });
});
