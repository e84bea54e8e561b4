import { readFileSync } from 'node:fs';
import path from 'node:path';
import { GIT_DOCS_SITE_ROOT, loopHoldDuring } from '@sift/testing';
import { ContentParsingPool } from './content-parsing-pool';
import { runTask } from './content-parsing.task';
import { warmUpPageHtml } from './warm-up-page';

// git-config.html: the largest page of the Git documentation site (about 500 kB), a second or more to extract.
const largePage = readFileSync(path.join(GIT_DOCS_SITE_ROOT, 'git-config.html'), 'utf8');
const options = { baseUrl: 'https://git-scm.example/docs/git-config.html', includeImages: true, format: 'markdown' };
jest.setTimeout(60_000);

describe('ContentParsingPool', () => {
  let pool: ContentParsingPool;

  beforeAll(async () => (pool = await ContentParsingPool.start({ threads: 2, deadlineMs: 30_000, maxHeapMb: 512, maxQueue: 100 })));
  afterAll(() => pool?.close());

  it('parses a crawled page with its links and index entry in worker threads exactly as inline, leaving the event loop free', async () => {
    const document = { html: largePage, status: 200, baseUrl: options.baseUrl, url: options.baseUrl, includeImages: true, extract: true, links: true, index: true };
    const expected = await runTask({ kind: 'html', ...document });
    if (expected.kind !== 'html') throw new Error(`inline parse answered ${expected.kind}`);
    expect(pool.threads).toBe(2);
    let analysed: unknown;
    const hold = await loopHoldDuring(async () => (analysed = await pool.html(document, 30_000)));
    expect(analysed).toEqual(expected.analysis);
    expect(hold.longestStallMs).toBeLessThan(hold.elapsedMs / 2);
    expect(expected.analysis.page?.markdown).toContain('core.editor');
    expect(expected.analysis.links?.links.length).toBeGreaterThan(10);
    expect(expected.analysis.indexed?.chunks[0].length).toBeGreaterThan(1);
    // A map reads only the links, and how much text the page shows without its scripts.
    const linksOnly = await pool.html({ ...document, extract: false, index: false, textSize: true }, 30_000);
    expect(linksOnly.page).toBeUndefined();
    expect(linksOnly.links).toEqual(expected.analysis.links);
    expect(linksOnly.textChars).toBeGreaterThan(10_000);
    // An unchanged page's links in a re-crawl: the links alone, and no verdict taken again.
    const linksAlone = await pool.html({ ...document, extract: false, index: false, judged: true }, 30_000);
    expect(linksAlone).toEqual({ blockReason: null, hasScripts: false, links: expected.analysis.links });
  });

  it("warms its threads on a page that runs the whole HTML path: a verdict, the page's article with its table, code and character references, links, an index entry", async () => {
    const analysis = await runTask({ kind: 'html', html: warmUpPageHtml(), status: 200, baseUrl: 'https://warm-up.invalid/docs/configure.html', url: 'https://warm-up.invalid/docs/configure.html', includeImages: true, extract: true, links: true, index: true });
    if (analysis.kind !== 'html') throw new Error(`the warm-up parse answered ${analysis.kind}`);
    const { blockReason, page, links, indexed } = analysis.analysis;
    expect(blockReason).toBeNull();
    expect(page?.markdown).toMatch(/^## Section 23: configuring the service$/m);
    expect(page?.markdown).toMatch(/^\| option-14 +\| 140 +\|/m);
    expect(page?.markdown).toContain('service --option-0=<value> --verbose > log');
    // Its character references are decoded (the warm-up runs the decoder and the text nodes it splits).
    expect(page?.markdown).toContain('When it\u2019s unset');
    expect(page?.markdown).toContain('names the setting \u2014 "out of range".');
    expect(page?.markdown).toContain('the load & the time of day.');
    expect(page?.markdown).not.toContain('Topic 39');
    expect(links?.links.length).toBeGreaterThan(40);
    expect(indexed?.chunks.length).toBeGreaterThan(1);
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
    const { page, indexed } = await pool.text('Tide tables and mooring fees.', 'https://harbour.example/notes.txt', 'https://harbour.example/notes', 30_000);
    expect(indexed).toBeUndefined();
    expect(page).toMatchObject({ url: 'https://harbour.example/notes', finalUrl: 'https://harbour.example/notes.txt' });
    expect(page.text).toContain('mooring fees');
  });
});
