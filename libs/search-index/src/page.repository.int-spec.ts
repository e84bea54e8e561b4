import { randomUUID } from 'node:crypto';
import { webPageOf } from '@sift/content-extraction';
import { createPrismaClient } from '@sift/persistence';
import type { PrismaClient } from '@sift/persistence';
import { ContentParsingPool } from '@sift/task-pool';
import { createTestAccount, loopHoldDuring } from '@sift/testing';
import { PageRepository } from './page.repository';
import { pageOwnerOf } from './stored-page';

describe('PageRepository (Postgres)', () => {
  let prisma: PrismaClient;
  let pages: PageRepository;
  const host = `store-${randomUUID().slice(0, 8)}.example.de`;

  beforeAll(() => {
    prisma = createPrismaClient(process.env.DATABASE_URL as string, 2);
    pages = new PageRepository(prisma);
  });

  afterAll(async () => {
    await prisma.document.deleteMany({ where: { domain: { endsWith: host } } });
    await prisma.$disconnect();
  });

  it('prepares a page of megabytes for the index in the parsing threads, its event loop free, as it would inline', async () => {
    // Segmenting and chunking 600,000 characters of Chinese is most of a second of CPU: on the loop it would hold
    // every other job of the worker for as long.
    const sentence = '委员会发布了关于水质的年度报告，理事会本周讨论了报告的结论。';
    const text = Array.from({ length: 20_000 }, (_, position) => `${sentence}第${position}段。`).join('\n\n');
    // Its own host (removed with the others): the next test counts the documents of `host`.
    const cjkHost = `cjk-${host}`;
    const page = (path: string) => webPageOf({ url: `https://${cjkHost}/${path}`, finalUrl: `https://${cjkHost}/${path}`, title: '水质年度报告', text, language: 'zh' });
    const pool = await ContentParsingPool.start({ threads: 1, deadlineMs: 60_000, maxHeapMb: 512, maxQueue: 10 });
    try {
      const threaded = new PageRepository(prisma, { prepare: (input) => pool.indexedPage(input) });
      const hold = await loopHoldDuring(() => threaded.save('operator', page('threaded'), 'extract'));
      expect(hold.longestStallMs).toBeLessThan(hold.elapsedMs / 2);
      await pages.save('operator', page('inline'), 'extract');
    } finally {
      await pool.close();
    }
    const stored = await prisma.$queryRawUnsafe<{ path: string; word_count: number; description: string | null; vector: string; chunks: number; chunk_words: number }[]>(
      `SELECT substring(d.url from '[^/]+$') AS path, d.word_count, d.description, d.search_vector::text AS vector,
              count(c.*)::int AS chunks, sum(c.word_count)::int AS chunk_words
       FROM documents d JOIN document_chunks c ON c.document_id = d.id
       WHERE d.domain = $1
       GROUP BY d.id ORDER BY 1`,
      cjkHost,
    );
    expect(stored.map((row) => row.path)).toEqual(['inline', 'threaded']);
    const [inline, threaded] = stored;
    expect(threaded.chunks).toBeGreaterThan(100);
    expect({ ...threaded, path: 'inline' }).toEqual(inline);
  }, 120_000);

  it('stores an extraction under its normalised URL and replaces it on the next save', async () => {
    const page = webPageOf({
      url: `https://${host}/article?utm_source=feed&b=2&a=1#top`,
      finalUrl: `https://${host}/article?utm_source=feed&b=2&a=1#top`,
      title: ' Die Geschichte ',
      text: 'Die Geschichte der Stadt und ihrer Brücken ist lang und reich an Ereignissen, die man nicht vergisst.',
      publishedDate: '2025-03-01T10:00:00Z',
      images: [{ url: `https://${host}/bridge.jpg`, alt: 'Brücke' }],
    });
    const first = await pages.save('operator', page, 'extract');
    expect(first).toMatchObject({
      source: 'extract',
      page: {
        url: `https://${host}/article?a=1&b=2`,
        title: 'Die Geschichte',
        language: 'de',
        countryHints: ['de'],
        images: [{ url: `https://${host}/bridge.jpg`, alt: 'Brücke' }],
        publishedDate: '2025-03-01T10:00:00.000Z',
        contentHash: page.contentHash,
      },
    });
    expect(first?.page.contentHash).toMatch(/^[0-9a-f]{64}$/);
    expect(await pages.findByUrl(page.url)).toEqual({ ...first, page: { ...first?.page } });

    const second = await pages.save('operator', webPageOf({ finalUrl: `https://${host}/article?a=1&b=2`, text: 'Neuer Text.', language: 'de-AT' }), 'crawl');
    expect(second?.id).toBe(first?.id);
    expect(second?.page.contentHash).not.toBe(first?.page.contentHash);
    expect(second?.source).toBe('crawl');
    expect(await prisma.document.count({ where: { domain: host } })).toBe(1);
  });

  it('serves the cache only within the freshness window', async () => {
    const url = `https://${host}/cached`;
    await pages.save('operator', webPageOf({ finalUrl: url, text: 'Cached page body.', language: 'en' }), 'extract', { fetchedAt: new Date(Date.now() - 60_000) });
    expect(await pages.getFresh('operator', `${url}#fragment`, 120_000)).toMatchObject({ page: { url, text: 'Cached page body.' } });
    expect(await pages.getFresh('operator', url, 30_000)).toBeNull();
    expect(await pages.getFresh('operator', 'not a url', 30_000)).toBeNull();
  });

  it('stores nothing for an account with zero data retention, whoever produced the page', async () => {
    const account = await createTestAccount(prisma, { plan: 'researcher', zeroDataRetention: true, name: 'zdr-store' });
    const before = await prisma.document.count({ where: { domain: host } });
    for (const source of ['extract', 'crawl', 'import'] as const) {
      const url = `https://${host}/secret-${source}`;
      expect(await pages.save({ accountId: account.id }, webPageOf({ finalUrl: url, text: 'Private.' }), source)).toBeNull();
      expect(await pages.findByUrl(url)).toBeNull();
    }
    expect(await pages.save(pageOwnerOf(account.id), webPageOf({ finalUrl: `https://${host}/secret-job`, text: 'Private.' }), 'extract')).toBeNull();
    expect(await prisma.document.count({ where: { domain: host } })).toBe(before);
  });

  it('does not overwrite a stored page for an account with zero data retention', async () => {
    const url = `https://${host}/shared`;
    await pages.save('operator', webPageOf({ finalUrl: url, text: 'Public version.' }), 'extract');
    const account = await createTestAccount(prisma, { plan: 'researcher', zeroDataRetention: true, name: 'zdr-overwrite' });
    expect(await pages.save({ accountId: account.id }, webPageOf({ finalUrl: url, text: 'Private version.' }), 'extract')).toBeNull();
    expect(await new PageRepository(prisma, { sharedIndex: true }).save({ accountId: account.id }, webPageOf({ finalUrl: url, text: 'Pooled version.' }), 'extract')).toBeNull();
    expect((await pages.findByUrl(url))?.page.text).toBe('Public version.');
    expect(await pages.findByUrl(url, { accountId: account.id })).toBeNull();
  });

  it("stores an account's page privately and the operator's shared", async () => {
    const account = await createTestAccount(prisma, { plan: 'researcher', name: 'normal-store' });
    const before = await prisma.document.count({ where: { domain: host } });
    for (const [index, owner] of [{ accountId: account.id }, pageOwnerOf(account.id)].entries()) {
      const url = `https://${host}/kept-private-${index}`;
      expect(await pages.save(owner, webPageOf({ finalUrl: url, text: `Kept ${index}.` }), 'extract')).not.toBeNull();
      expect(await pages.findByUrl(url, owner)).toMatchObject({ page: { text: `Kept ${index}.` } });
      expect(await pages.findByUrl(url)).toBeNull();
      expect(await prisma.document.findFirst({ where: { url } })).toMatchObject({ ownerAccountId: account.id });
    }
    for (const [index, owner] of (['operator', pageOwnerOf('admin-cli')] as const).entries()) {
      const url = `https://${host}/kept-shared-${index}`;
      expect(await pages.save(owner, webPageOf({ finalUrl: url, text: `Shared ${index}.` }), 'crawl')).not.toBeNull();
      expect(await pages.findByUrl(url)).toMatchObject({ page: { text: `Shared ${index}.` } });
      expect(await prisma.document.findFirst({ where: { url } })).toMatchObject({ ownerAccountId: null });
    }
    expect(await prisma.document.count({ where: { domain: host } })).toBe(before + 4);
  });

  it('stores nothing for a keyless caller', async () => {
    const before = await prisma.document.count({ where: { domain: host } });
    for (const owner of ['keyless', pageOwnerOf('keyless')] as const) {
      expect(await pages.save(owner, webPageOf({ finalUrl: `https://${host}/keyless`, text: 'Anyone.' }), 'extract')).toBeNull();
    }
    expect(await new PageRepository(prisma, { sharedIndex: true }).save('keyless', webPageOf({ finalUrl: `https://${host}/keyless`, text: 'Anyone.' }), 'extract')).toBeNull();
    expect(await prisma.document.count({ where: { domain: host } })).toBe(before);
  });

  it('keeps one copy per account for the same URL, and serves each account its own copy or the shared one from cache', async () => {
    const [first, second, third] = await Promise.all(
      ['first', 'second', 'third'].map((name) => createTestAccount(prisma, { plan: 'researcher', name: `tenant-${name}` })),
    );
    const url = `https://${host}/same-page?q=${randomUUID()}`;
    await pages.save({ accountId: first.id }, webPageOf({ finalUrl: url, text: 'First copy.' }), 'extract');
    await pages.save({ accountId: second.id }, webPageOf({ finalUrl: url, text: 'Second copy.' }), 'extract');
    expect(await prisma.document.count({ where: { url } })).toBe(2);
    expect((await pages.getFresh({ accountId: first.id }, url, 60_000))?.page.text).toBe('First copy.');
    expect((await pages.getFresh({ accountId: second.id }, url, 60_000))?.page.text).toBe('Second copy.');
    for (const viewer of [{ accountId: third.id }, 'keyless', 'operator'] as const) expect(await pages.getFresh(viewer, url, 60_000)).toBeNull();

    await pages.save('operator', webPageOf({ finalUrl: url, text: 'Shared copy.' }), 'import', { fetchedAt: new Date(Date.now() - 1000) });
    expect((await pages.getFresh({ accountId: third.id }, url, 60_000))?.page.text).toBe('Shared copy.');
    expect((await pages.getFresh('keyless', url, 60_000))?.page.text).toBe('Shared copy.');
    expect((await pages.getFresh({ accountId: first.id }, url, 60_000))?.page.text).toBe('First copy.');
  });

  it("pools an account's pages into the shared copy with sharedIndex", async () => {
    const account = await createTestAccount(prisma, { plan: 'researcher', name: 'pooled-store' });
    const other = await createTestAccount(prisma, { plan: 'researcher', name: 'pooled-reader' });
    const url = `https://${host}/pooled`;
    await new PageRepository(prisma, { sharedIndex: true }).save({ accountId: account.id }, webPageOf({ finalUrl: url, text: 'Pooled.' }), 'extract');
    expect(await prisma.document.findFirst({ where: { url } })).toMatchObject({ ownerAccountId: null });
    expect((await pages.getFresh({ accountId: other.id }, url, 60_000))?.page.text).toBe('Pooled.');
  });

  it('stores nothing for an account id that names no account', async () => {
    const url = `https://${host}/nobody`;
    expect(await pages.save({ accountId: randomUUID() }, webPageOf({ finalUrl: url, text: 'Whose?' }), 'extract')).toBeNull();
    expect(await pages.save({ accountId: 'acc-1' }, webPageOf({ finalUrl: url, text: 'Whose?' }), 'extract')).toBeNull();
    expect(await pages.findByUrl(url)).toBeNull();
  });

  it("indexes a page's headings as their own field, and indexes again a page stored before headings were (resegment)", async () => {
    const url = `https://${host}/guide`;
    const text = 'Installing\n\nRun the installer and wait until it reports that it has finished its work.\n\nTroubleshooting\n\nRead the log.';
    await pages.save('operator', webPageOf({ finalUrl: url, title: 'Guide', markdown: text.replace('Installing', '# Installing').replace('Troubleshooting', '## Troubleshooting'), text, language: 'en' }), 'import');
    const headingShare = async () =>
      (await prisma.$queryRaw<{ field_frequency: number }[]>`
        SELECT p.field_frequency FROM document_postings p JOIN documents d ON d.id = p.document_id
        WHERE d.url = ${url} AND p.lexeme = 'troubleshoot'`)[0].field_frequency;
    expect(await headingShare()).toBeGreaterThan(0);
    // As migration 20261124030000 found pages stored before it: no headings in the vector.
    await prisma.$executeRaw`UPDATE documents SET search_vector = sift_document_vector(language, title, description, '', text) WHERE url = ${url}`;
    expect(await headingShare()).toBe(0);
    await pages.resegment({ batchSize: 50 });
    expect(await headingShare()).toBeGreaterThan(0);
  });

  it('counts documents by source', async () => {
    const before = await pages.countBySource();
    await pages.save('operator', webPageOf({ finalUrl: `https://${host}/imported`, text: 'Imported text.' }), 'import');
    const after = await pages.countBySource();
    expect(after.import).toBe(before.import + 1);
    expect(await pages.count()).toBeGreaterThanOrEqual(after.import + after.crawl + after.extract - 1);
  });
});
