import { randomUUID } from 'node:crypto';
import { webPageOf } from '@sift/content-extraction';
import { FixtureServer, startFixtureServer } from '@sift/safe-fetch';
import { PageRepository } from '@sift/pages';
import { callGateway, createTestAccount, createTestKey, eventually } from '@sift/testing';
import { startTestGateway, TestGateway, uniqueClientIp } from '../testing/gateway-harness';
import { startWorkerProcess, WorkerProcess } from '../testing/worker-process';

interface ExtractBody {
  results: Array<{ url: string; raw_content: string }>;
  failed_results: Array<{ url: string; error: string }>;
}

interface SearchBody {
  results: Array<{ url: string; content: string }>;
}

const article = (title: string, text: string) =>
  `<!doctype html><html lang="en"><head><title>${title}</title></head><body><article><h1>${title}</h1><p>${text}</p></article></body></html>`;

/** One install: a gateway and a real extractor worker on their own queue prefix, with the given settings. */
async function startInstall(env: Record<string, string> = {}): Promise<{ gateway: TestGateway; worker: WorkerProcess }> {
  const worker = await startWorkerProcess('extractor-worker', env);
  const gateway = await startTestGateway({ QUEUE_PREFIX: worker.queuePrefix, FETCH_ALLOW_CIDRS: '127.0.0.1/32', ...env });
  return { gateway, worker };
}

// Issue #16, item 5: pages fetched through the API are visible to the account that fetched them; the operator's
// corpora are shared; SHARED_INDEX pools everything; keyless fetches are not stored.
describe('tenant visibility of stored pages, over HTTP', () => {
  const marker = `tenvex${randomUUID().replace(/-/g, '').slice(0, 8)}`;
  const operatorMarker = `opvex${randomUUID().replace(/-/g, '').slice(0, 8)}`;
  /** What the site serves under each path; a test changes it to see whether an answer came from a stored copy. */
  const served = new Map<string, string>();
  let site: FixtureServer;
  let install: { gateway: TestGateway; worker: WorkerProcess };
  let keyOf: () => Promise<string>;
  const operatorUrl = `https://operator-${marker}.example/atlas`;

  beforeAll(async () => {
    site = await startFixtureServer({
      '/page': (request, response) => {
        const text = served.get(new URL(request.url ?? '/', 'http://x').searchParams.get('id') ?? '') ?? 'nothing';
        response.writeHead(200, { 'content-type': 'text/html' }).end(article(`Page ${marker}`, text));
      },
    });
    install = await startInstall();
    keyOf = async () => {
      const account = await createTestAccount(install.gateway.prisma, { plan: 'growth' });
      return (await createTestKey(install.gateway.prisma, account.id)).apiKey;
    };
    await new PageRepository(install.gateway.prisma).save(
      'operator',
      webPageOf({ finalUrl: operatorUrl, title: `${operatorMarker} atlas`, text: `The shared ${operatorMarker} atlas of the operator.`, language: 'en' }),
      'import',
    );
  }, 120_000);

  afterAll(async () => {
    await install?.gateway.prisma.document.deleteMany({ where: { OR: [{ url: { startsWith: site.url } }, { url: operatorUrl }] } });
    await Promise.all([install?.gateway.close(), install?.worker.stop(), site?.close()]);
  });

  /** A page on the fixture site whose text is `text` plus the marker and a token: a URL with a query string. */
  const page = (text: string) => {
    const id = randomUUID();
    served.set(id, `${text} ${marker} ${'Filler words so the extractor keeps this paragraph as the article body. '.repeat(6)}`);
    return { id, url: `${site.url}/page?id=${id}&token=secret-${id.slice(0, 6)}` };
  };
  const extract = (gateway: TestGateway, apiKey: string | null, url: string) =>
    callGateway<ExtractBody>(gateway.baseUrl, 'POST', '/extract', {
      ...(apiKey ? { apiKey } : { headers: { 'X-Tavily-Access-Mode': 'keyless', 'X-Forwarded-For': uniqueClientIp() } }),
      body: { urls: [url] },
    });
  /** Copies of the page stored under the URL, for every owner (its query string's id picks it out). */
  const storedCopies = (gateway: TestGateway, url: string) => gateway.prisma.document.count({ where: { url: { contains: url.split('?')[1].split('&')[0] } } });
  /** An extract answers before its page is stored: what a test reads of the store waits for the copy to be there. */
  const extractStored = async (gateway: TestGateway, apiKey: string, url: string, copies = 1) => {
    const answer = await extract(gateway, apiKey, url);
    await eventually(`copy ${copies} of ${url} stored`, async () => ((await storedCopies(gateway, url)) >= copies ? true : undefined), 15_000, 25);
    return answer;
  };
  const searchUrls = async (gateway: TestGateway, apiKey: string, query: string) => {
    const { status, body } = await callGateway<SearchBody>(gateway.baseUrl, 'POST', '/search', { apiKey, body: { query, max_results: 20 } });
    expect(status).toBe(200);
    return body.results.map((result) => result.url);
  };

  it("keeps A's pages out of B's search, and shows both the operator's corpus", async () => {
    const [keyA, keyB] = await Promise.all([keyOf(), keyOf()]);
    const { url } = page('Quarterly plans of account A');
    expect((await extractStored(install.gateway, keyA, url)).body.results).toHaveLength(1);

    expect(await searchUrls(install.gateway, keyA, `${marker} quarterly plans`)).toContain(url);
    expect(await searchUrls(install.gateway, keyB, `${marker} quarterly plans`)).not.toContain(url);
    expect(await searchUrls(install.gateway, keyB, marker)).toEqual([]);
    for (const key of [keyA, keyB]) expect(await searchUrls(install.gateway, key, `${operatorMarker} atlas`)).toEqual([operatorUrl]);
  });

  it('stores nothing for a keyless extract', async () => {
    const { url } = page('A keyless visit');
    const keyless = await extract(install.gateway, null, url);
    expect(keyless.status).toBe(200);
    expect(keyless.body.results).toHaveLength(1);
    // The same URL for an account is stored after it, and is then the only copy: the keyless page, stored first had it
    // been, is not. The account's copy shows that the count is not vacuous.
    await extractStored(install.gateway, await keyOf(), url);
    expect(await storedCopies(install.gateway, url)).toBe(1);
  });

  it("never serves B the copy A's fetch stored, while A's own repeat comes from A's copy", async () => {
    const [keyA, keyB] = await Promise.all([keyOf(), keyOf()]);
    const { id, url } = page('First version seen by account A');
    expect((await extractStored(install.gateway, keyA, url)).body.results[0].raw_content).toContain('First version');
    served.set(id, `Second version ${marker} ${'Filler words so the extractor keeps this paragraph as the article body. '.repeat(6)}`);

    expect((await extract(install.gateway, keyB, url)).body.results[0].raw_content).toContain('Second version');
    // A's repeat within the cache window is answered from A's stored copy: the cache is on in this install.
    expect((await extract(install.gateway, keyA, url)).body.results[0].raw_content).toContain('First version');
  });

  describe('with SHARED_INDEX=true', () => {
    let pooled: { gateway: TestGateway; worker: WorkerProcess };

    beforeAll(async () => {
      pooled = await startInstall({ SHARED_INDEX: 'true' });
    }, 120_000);

    afterAll(async () => {
      await Promise.all([pooled?.gateway.close(), pooled?.worker.stop()]);
    });

    it("shows B the pages A fetched", async () => {
      const [keyA, keyB] = await Promise.all([keyOf(), keyOf()]);
      const { url } = page('Pooled notes of one team');
      expect((await extractStored(pooled.gateway, keyA, url)).body.results).toHaveLength(1);
      expect(await searchUrls(pooled.gateway, keyB, `${marker} pooled notes`)).toContain(url);
    });
  });
});
