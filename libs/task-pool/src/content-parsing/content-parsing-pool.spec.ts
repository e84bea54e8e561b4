import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ExtractOptions } from '@sift/content-extraction';
import { GIT_DOCS_SITE_ROOT, loopHoldDuring } from '@sift/testing';
import { ContentParsingPool } from './content-parsing-pool';
import { runTask } from './content-parsing.task';

// git-config.html: the largest page of the Git documentation site (about 500 kB), a second or more to extract.
const largePage = readFileSync(path.join(GIT_DOCS_SITE_ROOT, 'git-config.html'), 'utf8');
const options: ExtractOptions = { baseUrl: 'https://git-scm.example/docs/git-config.html', includeImages: true, format: 'markdown' };
jest.setTimeout(60_000);

describe('ContentParsingPool', () => {
  let pool: ContentParsingPool;

  beforeAll(async () => (pool = await ContentParsingPool.start({ threads: 2, deadlineMs: 30_000, maxHeapMb: 512, maxQueue: 100 })));
  afterAll(() => pool?.close());

  it('extracts a crawled page in worker threads exactly as inline, leaving the event loop free', async () => {
    const expected = await runTask({ kind: 'page-with-links', html: largePage, options });
    if (expected.kind !== 'page-with-links') throw new Error(`inline parse answered ${expected.kind}`);
    expect(pool.threads).toBe(2);
    let extracted: unknown;
    const hold = await loopHoldDuring(async () => (extracted = await pool.extractPageWithLinks(largePage, options)));
    expect(extracted).toEqual({ page: expected.page, links: expected.links });
    expect(hold.longestStallMs).toBeLessThan(hold.elapsedMs / 2);
    expect(expected.page.markdown).toContain('core.editor');
    await expect(pool.extractLinks(largePage, options.baseUrl)).resolves.toEqual(expected.links);
  });

  it('judges an extractor response (block page, scripts) and extracts it, or only judges it', async () => {
    const document = { html: largePage, status: 200, baseUrl: options.baseUrl, url: options.baseUrl, includeImages: false, extract: true };
    const analysis = await pool.html(document, 30_000);
    expect(analysis).toMatchObject({ blockReason: null, hasScripts: false });
    expect(analysis.page?.markdown).toContain('core.editor');
    const challenge = '<html><head><title>Just a moment...</title></head><body><div id="cf-challenge-running"></div><script></script></body></html>';
    const blocked = await pool.html({ ...document, html: challenge, status: 403, extract: false }, 30_000);
    expect(blocked.blockReason).toEqual(expect.any(String));
    expect(blocked).toMatchObject({ hasScripts: true });
    expect(blocked.page).toBeUndefined();
  });

  it('reads plain text into a page', async () => {
    const page = await pool.text('Tide tables and mooring fees.', 'https://harbour.example/notes.txt', 'https://harbour.example/notes', 30_000);
    expect(page).toMatchObject({ url: 'https://harbour.example/notes', finalUrl: 'https://harbour.example/notes.txt' });
    expect(page.text).toContain('mooring fees');
  });
});
