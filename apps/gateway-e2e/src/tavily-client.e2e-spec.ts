import { tavily } from '@tavily/core';
import { GitDocsSite, startGitDocsSite } from '@sift/testing';
import { SiftStack, startSiftStack } from './sift-stack';

// The whole stack runs in child processes beside the rest of the suite on two cores; a run that loses a race for
// CPU is retried once, and the first failure is still printed.
jest.retryTimes(1, { logErrorsBeforeRetry: true });

// The official JavaScript client, unmodified, pointed at Sift started the way the README starts it.
describe('@tavily/core against Sift (npm start)', () => {
  let stack: SiftStack;
  let site: GitDocsSite;
  let client: ReturnType<typeof tavily>;

  beforeAll(async () => {
    [stack, site] = await Promise.all([startSiftStack(), startGitDocsSite()]);
    client = tavily({ apiKey: stack.createKey('growth'), apiBaseURL: stack.baseUrl });
  }, 120_000);

  afterAll(async () => {
    await Promise.all([stack?.stop(), site?.close()]);
  });

  it('extract() returns page content and reports failures per URL', async () => {
    const response = await client.extract([`${site.origin}/git-merge.html`, `${site.origin}/no-such-page.html`], { includeFavicon: true });
    expect(response.results).toHaveLength(1);
    expect(response.results[0].url).toBe(`${site.origin}/git-merge.html`);
    expect(response.results[0].rawContent).toMatch(/Join two or more development histories together/);
    expect(response.failedResults).toEqual([expect.objectContaining({ url: `${site.origin}/no-such-page.html` })]);
    expect(response.failedResults[0].error).toMatch(/404/);
    expect(response.requestId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('crawl() follows links within the limit and returns markdown', async () => {
    const response = await client.crawl(`${site.origin}/index.html`, { maxDepth: 1, limit: 5, extractDepth: 'basic' });
    expect(response.baseUrl).toContain(site.origin);
    expect(response.results).toHaveLength(5);
    for (const page of response.results) {
      expect(page.url.startsWith(site.origin)).toBe(true);
      expect(page.rawContent.length).toBeGreaterThan(50);
    }
  });

  it('map() finds pages only listed in the sitemap', async () => {
    const response = await client.map(`${site.origin}/index.html`, { maxDepth: 1, limit: 300 });
    expect(response.results.length).toBeGreaterThan(200);
    // howto/ pages are reachable only through sitemap.xml, not by links from the seed at depth 1.
    expect(response.results.some((url: string) => url.includes('/howto/'))).toBe(true);
    expect(response.results.some((url: string) => url.includes('/technical/'))).toBe(false);
  });

  it('the keyless mode the client selects without a key works for extract', async () => {
    const keyless = tavily({ apiBaseURL: stack.baseUrl } as Parameters<typeof tavily>[0]);
    const response = await keyless.extract([`${site.origin}/git-add.html`]).catch((error: Error) => error);
    if (response instanceof Error) throw response;
    expect(response.results[0].title).toMatch(/git-add/);
    expect(response.results[0].rawContent).toMatch(/interactive mode/i);
  });
});
