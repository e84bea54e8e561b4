import { readFileSync } from 'node:fs';
import path from 'node:path';
import { GIT_DOCS_SITE_ROOT } from '@sift/testing';
import { PageExtractionOptions } from './crawl-dependencies';
import { PageExtractionPool } from './page-extraction-pool';
import { runTask } from './page-extraction.task';

// git-config.html: the largest page of the Git documentation site (about 500 kB), a second or more to extract.
const largePage = readFileSync(path.join(GIT_DOCS_SITE_ROOT, 'git-config.html'), 'utf8');
const options: PageExtractionOptions = { baseUrl: 'https://git-scm.example/docs/git-config.html', includeImages: true, format: 'markdown' };
jest.setTimeout(60_000);

/** Resolves how many times a 1 ms interval fired while `work` ran: 0 means the event loop was blocked throughout. */
async function timerTurnsDuring(work: () => Promise<unknown>): Promise<number> {
  let turns = 0;
  const interval = setInterval(() => (turns += 1), 1);
  try {
    await work();
  } finally {
    clearInterval(interval);
  }
  return turns;
}

describe('PageExtractionPool', () => {
  const expected = runTask({ kind: 'page', html: largePage, options });

  it('extracts in worker threads exactly what inline extraction gives, leaving the event loop free', async () => {
    const pool = await PageExtractionPool.start({ threads: 2, deadlineMs: 30_000, maxHeapMb: 512, maxQueue: 100 });
    try {
      expect(pool.threads).toBe(2);
      let extracted: unknown;
      const turns = await timerTurnsDuring(async () => (extracted = await pool.extractPageWithLinks(largePage, options)));
      expect(extracted).toEqual({ page: expected.kind === 'page' && expected.page, links: expected.links });
      expect(turns).toBeGreaterThan(0);
      expect(expected.kind === 'page' && expected.page.markdown).toContain('core.editor');
      await expect(pool.extractLinks(largePage, options.baseUrl)).resolves.toEqual(expected.links);
    } finally {
      await pool.close();
    }
  });
});
