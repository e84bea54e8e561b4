import { randomBytes, randomUUID } from 'node:crypto';
import { indexedPageOf, webPageOf } from '@sift/content-extraction';
import { createPrismaClient } from '@sift/persistence';
import type { PrismaClient } from '@sift/persistence';
import { ContentParsingPool } from '@sift/task-pool';
import { createTestAccount, loopHoldDuring } from '@sift/testing';
import { LocalIndexProvider } from './local-index.provider';
import { PageRepository } from '@sift/pages';
import { pageOwnerOf } from '@sift/pages';

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

  /**
   * A stored page's vector, and the vector its stored chunks make: its title, description and headings as stored
   * (weights A, B, C), then the vectors of its chunks that start within the first 200,000 characters, concatenated one
   * after another in position order (weight D). The same when the page's body was made from its chunks; not when its
   * text was parsed whole (a chunk's trailing stop words then count for the positions that follow).
   */
  const vectorsOf = async (url: string) =>
    (
      await prisma.$queryRawUnsafe<{ stored: string; from_chunks: string; chunks: number; indexed_chunks: number }[]>(
        `WITH RECURSIVE chunks AS (
           SELECT c.position, c.vector, sum(length(c.content)) OVER (ORDER BY c.position) - length(c.content) AS start
           FROM document_chunks c JOIN documents d ON d.id = c.document_id WHERE d.url = $1),
         body (position, vector) AS (
           SELECT position, vector FROM chunks WHERE position = 0
           UNION ALL
           SELECT c.position, b.vector || c.vector FROM body b JOIN chunks c ON c.position = b.position + 1 AND c.start < 200000)
         SELECT d.search_vector::text AS stored,
                (ts_filter(d.search_vector, '{a,b,c}') || setweight((SELECT vector FROM body ORDER BY position DESC LIMIT 1), 'D'))::text AS from_chunks,
                (SELECT count(*)::int FROM chunks) AS chunks, (SELECT count(*)::int FROM body) AS indexed_chunks
         FROM documents d WHERE d.url = $1`,
        url,
      )
    )[0];

  /** A text of paragraphs that end in stop words, cut into several chunks. */
  const paragraphs = (words: string[]) =>
    words.map((word) => `The ${word} keeper opens the weir at dawn and closes it at dusk, as keepers of old did it.`).join('\n\n');

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

  it('only refreshes a page stored again unchanged, and indexes it again when anything changed or the indexing did', async () => {
    const refreshHost = `refresh-${host}`;
    const url = `https://${refreshHost}/page`;
    const text = ['First paragraph about rivers and their bridges.', 'Second paragraph about the harbour and its ships.'].join('\n\n');
    const page = (body: string) => webPageOf({ url, finalUrl: url, title: 'Rivers', text: body, language: 'en' });
    // A chunk row's xmin is the transaction that last wrote it: rewritten chunks get a new one.
    const state = async () => {
      const [row] = await prisma.$queryRawUnsafe<{ fetched_at: Date; source: string; vector: string; index_version: number; chunk_writers: string }[]>(
        `SELECT d.fetched_at, d.source::text AS source, d.search_vector::text AS vector, d.index_version,
                (SELECT string_agg(c.xmin::text, ',' ORDER BY c.position) FROM document_chunks c WHERE c.document_id = d.id) AS chunk_writers
         FROM documents d WHERE d.url = $1`,
        url,
      );
      return row;
    };
    // Counts the preparations: a refreshed page is not prepared for the index at all.
    let preparations = 0;
    const counting = new PageRepository(prisma, { prepare: async (input) => (preparations++, indexedPageOf(input)) });
    const first = await counting.save('operator', page(text), 'crawl');
    const stored = await state();
    expect(stored.index_version).toBeGreaterThan(0);
    const again = await counting.save('operator', page(text), 'extract');
    expect(preparations).toBe(1);
    expect(again?.id).toBe(first?.id);
    const refreshed = await state();
    expect(refreshed.fetched_at.getTime()).toBeGreaterThan(stored.fetched_at.getTime());
    expect(refreshed).toMatchObject({ source: 'extract', vector: stored.vector, chunk_writers: stored.chunk_writers });
    // Changed text: a new vector and new chunks.
    await pages.save('operator', page(`${text}\n\nThird paragraph about canals.`), 'extract');
    const changed = await state();
    expect(changed.vector).not.toBe(stored.vector);
    expect(changed.chunk_writers).not.toBe(stored.chunk_writers);
    // Indexed by older code (version 0, as a row stored before the migration): the same content is indexed again.
    await prisma.$executeRawUnsafe(`UPDATE documents SET index_version = 0 WHERE url = $1`, url);
    await pages.save('operator', page(`${text}\n\nThird paragraph about canals.`), 'extract');
    const reindexed = await state();
    expect(reindexed.index_version).toBe(stored.index_version);
    expect(reindexed.chunk_writers).not.toBe(changed.chunk_writers);
    // The same text without the meta description it had: the summary line becomes the description.
    const described = (description?: string) =>
      webPageOf({ url, finalUrl: url, title: 'Rivers', text: `${text}\n\nThird paragraph about canals.`, language: 'en', description });
    await pages.save('operator', described('A guide to rivers.'), 'extract');
    expect((await pages.findByUrl(url))?.page.description).toBe('A guide to rivers.');
    await pages.save('operator', described(), 'extract');
    expect((await pages.findByUrl(url))?.page.description).not.toBe('A guide to rivers.');
  });

  it('tells an unchanged page from a changed one by its text and markdown, whatever their script, and the markdown alone', async () => {
    const url = `https://digests-${host}/seite`;
    // Non-ASCII text: the digest the worker sends must be the one Postgres takes of the stored UTF-8 text.
    const text = ['Überblick über die Brücken der Stadt — 橋と川の案内.', 'Zweiter Absatz über den Hafen und seine Schiffe 🚢.'].join('\n\n');
    const page = (markdown: string) => webPageOf({ url, finalUrl: url, title: 'Brücken', text, markdown, language: 'de' });
    const chunkWriters = async () => {
      const [row] = await prisma.$queryRawUnsafe<{ writers: string }[]>(
        `SELECT string_agg(c.xmin::text, ',' ORDER BY c.position) AS writers FROM document_chunks c JOIN documents d ON d.id = c.document_id WHERE d.url = $1`,
        url,
      );
      return row.writers;
    };
    let preparations = 0;
    const counting = new PageRepository(prisma, { prepare: async (input) => (preparations++, indexedPageOf(input)) });
    await counting.save('operator', page(`# Brücken\n\n${text}`), 'crawl');
    const stored = await chunkWriters();
    await counting.save('operator', page(`# Brücken\n\n${text}`), 'crawl');
    expect(preparations).toBe(1);
    expect(await chunkWriters()).toBe(stored);
    // The same text (and content hash) under other markdown: indexed again.
    await counting.save('operator', page(`## Brücken\n\n${text}`), 'crawl');
    expect(preparations).toBe(2);
    expect((await pages.findByUrl(url))?.page.markdown).toContain('## Brücken');
  });

  it('gives back a stored page for the response it was extracted from: same digest, same owner, current indexing; a save without the digest forgets it', async () => {
    const url = `https://fingerprint-${host}/Page`;
    const account = await createTestAccount(prisma, { plan: 'researcher', name: 'fingerprint' });
    const owner = { accountId: account.id };
    const page = webPageOf({ url, finalUrl: url, title: 'Weirs', text: 'The weir keeper opens the gates at dawn.', language: 'en' });
    const digest = 'a'.repeat(64);
    const saved = await pages.save(owner, page, 'extract', { sourceFingerprint: digest });
    const fetchedAt = async () => (await prisma.document.findFirstOrThrow({ where: { id: saved?.id } })).fetchedAt.getTime();
    const before = await fetchedAt();

    // The URL as asked (not normalised) finds it; another digest, owner or caller does not.
    const again = await pages.refetched(owner, url, digest, 'extract');
    expect(again).toMatchObject({ id: saved?.id, page: { title: 'Weirs', text: page.text, contentHash: page.contentHash } });
    expect(await fetchedAt()).toBeGreaterThan(before);
    expect(await pages.refetched(owner, url, 'b'.repeat(64), 'extract')).toBeNull();
    expect(await pages.refetched('operator', url, digest, 'extract')).toBeNull();
    expect(await pages.refetched('keyless', url, digest, 'extract')).toBeNull();
    expect(await pages.refetched({ accountId: 'not-an-account' }, url, digest, 'extract')).toBeNull();

    // Indexed by older code: not given back (a save indexes it again).
    await prisma.$executeRawUnsafe(`UPDATE documents SET index_version = 0 WHERE id = $1::uuid`, saved?.id);
    expect(await pages.refetched(owner, url, digest, 'extract')).toBeNull();
    await pages.save(owner, page, 'extract', { sourceFingerprint: digest });
    expect((await pages.refetched(owner, url, digest, 'extract'))?.id).toBe(saved?.id);

    // The same page saved by a producer that gives no digest (a crawl), unchanged or not: it is no longer given back.
    await pages.save(owner, page, 'crawl');
    expect(await pages.refetched(owner, url, digest, 'extract')).toBeNull();
    await pages.save(owner, page, 'extract', { sourceFingerprint: digest });
    await pages.save(owner, webPageOf({ url, finalUrl: url, title: 'Weirs', text: 'The weir keeper closes the gates at dusk.', language: 'en' }), 'crawl');
    expect(await pages.refetched(owner, url, digest, 'extract')).toBeNull();
  });

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

  it('looks up many URLs in one call, each under the URL it was asked as, with the copy its viewer may see', async () => {
    const owner = await createTestAccount(prisma, { plan: 'researcher', name: 'many-owner' });
    const [own, shared, old, missing] = ['own', 'shared', 'old', 'missing'].map((path) => `https://${host}/many-${path}`);
    await pages.save({ accountId: owner.id }, webPageOf({ finalUrl: own, text: 'Own copy.' }), 'extract');
    await pages.save('operator', webPageOf({ finalUrl: own, text: 'Older shared copy.' }), 'extract', { fetchedAt: new Date(Date.now() - 10_000) });
    await pages.save('operator', webPageOf({ finalUrl: shared, text: 'Shared copy.' }), 'extract');
    await pages.save('operator', webPageOf({ finalUrl: old, text: 'Stale copy.' }), 'extract', { fetchedAt: new Date(Date.now() - 120_000) });
    const found = await pages.getFreshMany({ accountId: owner.id }, [`${own}#top`, shared, old, missing, 'not a url'], 60_000);
    expect(Object.fromEntries([...found].map(([url, copy]) => [url, copy.page.text]))).toEqual({ [`${own}#top`]: 'Own copy.', [shared]: 'Shared copy.' });
    // Another viewer sees the shared copy of the first URL, not the owner's.
    expect((await pages.getFreshMany('keyless', [own], 60_000)).get(own)?.page.text).toBe('Older shared copy.');
    expect(await pages.getFreshMany('keyless', [], 60_000)).toEqual(new Map());
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

  it("removes a page's postings with the page, deleted alone or with its account", async () => {
    const account = await createTestAccount(prisma, { plan: 'researcher', name: 'postings-removed' });
    const postingsOf = async (url: string) =>
      (await prisma.$queryRawUnsafe<{ count: number }[]>(
        `SELECT count(*)::int AS count FROM document_postings p WHERE p.document_id IN (SELECT id FROM documents WHERE url = $1)`,
        url,
      ))[0].count;
    const orphans = async (ids: string[]) =>
      (await prisma.$queryRawUnsafe<{ count: number }[]>(`SELECT count(*)::int AS count FROM document_postings WHERE document_id = ANY($1::uuid[])`, ids))[0].count;
    const shared = `https://${host}/postings-shared`;
    const owned = `https://${host}/postings-owned`;
    const sharedPage = await pages.save('operator', webPageOf({ finalUrl: shared, text: 'Rivers, bridges and harbours of the old town.' }), 'crawl');
    const ownedPage = await pages.save({ accountId: account.id }, webPageOf({ finalUrl: owned, text: 'Canals, locks and weirs of the new town.' }), 'extract');
    expect(await postingsOf(shared)).toBeGreaterThan(3);
    expect(await postingsOf(owned)).toBeGreaterThan(3);
    await prisma.document.delete({ where: { id: sharedPage?.id } });
    await prisma.account.delete({ where: { id: account.id } });
    expect(await orphans([sharedPage?.id ?? '', ownedPage?.id ?? ''])).toBe(0);
  });

  it("records the pages a page's content links to, normalised, replaces them when it is stored again and removes them with it", async () => {
    const account = await createTestAccount(prisma, { plan: 'researcher', name: 'links-recorded' });
    const url = `https://${host}/links-source`;
    const linksOf = async (documentId: string | undefined) =>
      (await prisma.documentLink.findMany({ where: { documentId }, orderBy: { targetUrl: 'asc' } })).map((link) => [link.targetUrl, link.ownerAccountId]);
    const markdown = (targets: string[]) => targets.map((target, position) => `Step ${position}: see [the page](${target}).`).join('\n\n');
    const first = await pages.save('operator', webPageOf({
      finalUrl: url,
      markdown: markdown([`https://${host.toUpperCase()}/b?utm_source=x&z=1&a=2#part`, `https://${host}/a`, `${url}#top`, `https://${host}/a#again`, `https://${host}/long?q=${'x'.repeat(6000)}`]),
      text: 'Steps that point to the reference pages.',
    }), 'crawl');
    // The host lower-cased, the fragment and the tracking parameter dropped, the query sorted (normalizeUrl), each target
    // once, the page's link to itself left out, and a target too long for the index skipped (the page is still stored).
    expect(await linksOf(first?.id)).toEqual([[`https://${host}/a`, null], [`https://${host}/b?a=2&z=1`, null]]);
    const second = await pages.save('operator', webPageOf({ finalUrl: url, markdown: markdown([`https://${host}/a`, `https://${host}/c`]), text: 'Steps that point elsewhere now.' }), 'crawl');
    expect(second?.id).toBe(first?.id);
    expect(await linksOf(first?.id)).toEqual([[`https://${host}/a`, null], [`https://${host}/c`, null]]);
    // An account's page: its links carry the owner the ranking's count filters by.
    const owned = await pages.save({ accountId: account.id }, webPageOf({ finalUrl: `https://${host}/links-owned`, markdown: markdown([`https://${host}/a`]), text: 'A private page.' }), 'extract');
    expect(await linksOf(owned?.id)).toEqual([[`https://${host}/a`, account.id]]);
    // Stored before links were recorded: resegment records them.
    await prisma.documentLink.deleteMany({ where: { documentId: first?.id } });
    await pages.resegment({ batchSize: 50 });
    expect(await linksOf(first?.id)).toEqual([[`https://${host}/a`, null], [`https://${host}/c`, null]]);
    await prisma.document.delete({ where: { id: first?.id } });
    await prisma.account.delete({ where: { id: account.id } });
    expect(await prisma.documentLink.count({ where: { documentId: { in: [first?.id ?? '', owned?.id ?? ''] } } })).toBe(0);
  });

  it("stores the names the page's title gives it, replaces them with the title, and resegment names older pages", async () => {
    const url = `https://${host}/named`;
    const namesOf = async (id: string | undefined) => (await prisma.document.findUniqueOrThrow({ where: { id } })).titleNames;
    const first = await pages.save('operator', webPageOf({ finalUrl: url, title: 'git-clean(1) | Git Manual', text: 'Remove untracked files from the working tree.' }), 'crawl');
    expect(await namesOf(first?.id)).toEqual(['git clean', 'git manual']);
    await pages.save('operator', webPageOf({ finalUrl: url, title: 'Cleaning', text: 'Remove untracked files from the working tree.' }), 'crawl');
    expect(await namesOf(first?.id)).toEqual([]);
    // Stored before the names were (migration 20261126000000): resegment names it.
    await pages.save('operator', webPageOf({ finalUrl: url, title: 'Cleaning the tree', text: 'Remove untracked files from the working tree.' }), 'crawl');
    await prisma.document.update({ where: { id: first?.id }, data: { titleNames: [] } });
    await pages.resegment({ batchSize: 50 });
    expect(await namesOf(first?.id)).toEqual(['cleaning the tree']);
  });

  it("compresses a page's text, markdown and vector with LZ4 where the server has it (migration 20261124090000)", async () => {
    const [server] = await prisma.$queryRawUnsafe<{ lz4: boolean }[]>(
      `SELECT 'lz4' = ANY(enumvals) AS lz4 FROM pg_settings WHERE name = 'default_toast_compression'`,
    );
    const url = `https://${host}/compressed`;
    // Repetitive enough to be compressed, long enough (over 2 kB) to be considered for it.
    const text = Array.from({ length: 400 }, (_, line) => `Line ${line % 7} of the weir and lock keeper's log.`).join('\n');
    await pages.save('operator', webPageOf({ finalUrl: url, title: 'Log', text }), 'crawl');
    const [row] = await prisma.$queryRawUnsafe<{ text: string | null; markdown: string | null; vector: string | null }[]>(
      `SELECT pg_column_compression(text) AS text, pg_column_compression(markdown) AS markdown,
              pg_column_compression(search_vector) AS vector
       FROM documents WHERE url = $1`,
      url,
    );
    const expected = server.lz4 ? 'lz4' : 'pglz';
    expect(row.text).toBe(expected);
    expect(row.markdown).toBe(expected);
    // A vector this repetitive is small: stored inline and uncompressed, or compressed with the column's method.
    expect([null, expected]).toContain(row.vector);
  });

  it('stores the posting weights of the BM25F formula (migrations 20261124030000, 20261124080000)', async () => {
    const url = `https://${host}/weights`;
    const title = 'Weir keeper';
    const text = 'The weir keeper opens the weir at dawn. The lock keeper waits. Boats pass the lock at noon.';
    await pages.save('operator', webPageOf({ finalUrl: url, title, text, language: 'en' }), 'crawl');
    const rows = await prisma.$queryRawUnsafe<{ lexeme: string; impact: number; field_frequency: number; body_frequency: number; word_count: number }[]>(
      `SELECT p.lexeme, p.impact, p.field_frequency, p.body_frequency, d.word_count
       FROM document_postings p JOIN documents d ON d.id = p.document_id WHERE d.url = $1 ORDER BY p.lexeme`,
      url,
    );
    const weir = rows.find((row) => row.lexeme === 'weir')!;
    const lock = rows.find((row) => row.lexeme === 'lock')!;
    // "weir": once in the 2-word title (2 × 1 / (0.5 + 0.5 × 2 / 8)), twice in the body.
    expect(weir.field_frequency).toBeCloseTo(2 / (0.5 + 0.5 * (2 / 8)), 5);
    expect(weir.body_frequency).toBe(2);
    expect(lock.field_frequency).toBe(0);
    expect(lock.body_frequency).toBe(2);
    for (const row of [weir, lock]) {
      const frequency = row.field_frequency + row.body_frequency / (0.5 + (0.5 * Math.max(row.word_count, 1)) / 500);
      expect(row.impact).toBeCloseTo(frequency / (frequency + 1.2), 5);
    }
  });

  it('stores nothing for a keyless caller', async () => {
    const before = await prisma.document.count({ where: { domain: host } });
    for (const owner of ['keyless', pageOwnerOf('keyless')] as const) {
      expect(await pages.save(owner, webPageOf({ finalUrl: `https://${host}/keyless`, text: 'Anyone.' }), 'extract')).toBeNull();
    }
    expect(await new PageRepository(prisma, { sharedIndex: true }).save('keyless', webPageOf({ finalUrl: `https://${host}/keyless`, text: 'Anyone.' }), 'extract')).toBeNull();
    expect(await prisma.document.count({ where: { domain: host } })).toBe(before);
  });

  it('stores nothing, without failing, for a page whose URL is longer than the URL index can key', async () => {
    // Incompressible (random) characters: a b-tree entry compresses a long key before it gives up on it.
    const long = `https://${host}/track?data=${randomBytes(2_200).toString('base64url')}`;
    expect(long.length).toBeGreaterThan(2_000);
    expect(await pages.save('operator', webPageOf({ finalUrl: long, text: 'A page behind a tracking link.' }), 'extract')).toBeNull();
    const fitting = `https://${host}/track?data=${randomBytes(1_400).toString('base64url')}`;
    expect(fitting.length).toBeLessThanOrEqual(2_000);
    expect(await pages.save('operator', webPageOf({ finalUrl: fitting, text: 'A page behind a shorter tracking link.' }), 'extract')).not.toBeNull();
    expect(await prisma.document.count({ where: { url: { in: [long, fitting] } } })).toBe(1);
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

  it("makes the body of a page's vector from its chunks' vectors, and finds the page by its body's words", async () => {
    const url = `https://${host}/keepers`;
    const text = paragraphs(['river', 'canal', 'harbour', 'sluice', 'lock', 'ferry', 'bridge', 'mill', 'dyke', 'lighthouse']);
    const markdown = `# Keepers\n\n${text}`;
    await pages.save('operator', webPageOf({ finalUrl: url, title: 'Keepers', description: 'Who keeps the waters.', markdown, text, language: 'en' }), 'crawl');
    const vectors = await vectorsOf(url);
    expect(vectors.chunks).toBeGreaterThan(1);
    expect(vectors.stored).toBe(vectors.from_chunks);
    // The fields before the body, as sift_document_vector makes them: title A, description B, headings C, body D.
    expect(vectors.stored).toMatch(/'keeper':1A,\d+C,\d+,/);
    expect(vectors.stored).toMatch(/'water':\d+B/);
    // The postings count the body's occurrences: "keeper" twice in each of the ten paragraphs, as in the text parsed whole.
    const [keeper] = await prisma.$queryRawUnsafe<{ body_frequency: number; whole_text: number }[]>(
      `SELECT p.body_frequency, cardinality((SELECT positions FROM unnest(to_tsvector('english', d.text)) WHERE lexeme = 'keeper')) AS whole_text
       FROM document_postings p JOIN documents d ON d.id = p.document_id WHERE d.url = $1 AND p.lexeme = 'keeper'`,
      url,
    );
    expect(keeper).toEqual({ body_frequency: 20, whole_text: 20 });
    const found = await new LocalIndexProvider(prisma, { statisticsTtlMs: 0 }).search({ query: 'lighthouse keeper', maxResults: 10, includeDomains: [host] });
    expect(found.map((candidate) => candidate.url)).toContain(url);
  });

  it('finds a page by a part of a dotted name in its text and title, and by the whole name, on both candidate paths', async () => {
    // Postgres's parser reads "user.email" as one host token: before searchableText, neither "email" nor "user email"
    // found a page that names the key only so.
    const url = `https://${host}/identity`;
    const key = `dotkey${host.slice(6, 14)}`;
    const text = `Set core.${key} to true, then set user.email once for every repository on the machine.`;
    await pages.save('operator', webPageOf({ finalUrl: url, title: `The settings.${key}Title guide`, text, language: 'en' }), 'crawl');
    const index = new LocalIndexProvider(prisma, { statisticsTtlMs: 0 });
    for (const query of [key, `core.${key}`, `${key}title`, `${key} user email`]) {
      for (const includeDomains of [[host], undefined]) {
        const found = await index.search({ query, maxResults: 10, includeDomains });
        expect(found.map((candidate) => candidate.url)).toContain(url);
      }
    }
  });

  it('finds a page by the words that follow a literal <style> in its text', async () => {
    // Postgres's parser reads what follows "<style>" as the content of an HTML element and skips it to the end of the
    // text it parses: the page's whole text once, then the rest of that chunk, now nothing (indexedPageOf).
    const url = `https://${host}/conflicts`;
    const word = `marker${host.slice(6, 14)}`;
    const text = ['Choose the look of a conflict with --conflict=<style>.', paragraphs(['river', 'canal', 'harbour', 'sluice', 'lock', 'ferry', word])].join('\n\n');
    await pages.save('operator', webPageOf({ finalUrl: url, title: 'Conflicts', text, language: 'en' }), 'crawl');
    const found = await new LocalIndexProvider(prisma, { statisticsTtlMs: 0 }).search({ query: word, maxResults: 10, includeDomains: [host] });
    expect(found.map((candidate) => candidate.url)).toEqual([url]);
  });

  it('finds a page by the words that follow "<script>" in the same chunk and in its title', async () => {
    // The parser would skip everything after "<script" in what it parses (the chunk, the title): indexedPageOf puts a
    // space after the "<".
    const url = `https://${host}/scripts`;
    const inChunk = `chunkword${host.slice(6, 14)}`;
    const inTitle = `titleword${host.slice(6, 14)}`;
    const text = `Load it with <script src="app.js"></script> and then ${inChunk} runs.`;
    await pages.save('operator', webPageOf({ finalUrl: url, title: `The <script> element and ${inTitle}`, text, language: 'en' }), 'crawl');
    const index = new LocalIndexProvider(prisma, { statisticsTtlMs: 0 });
    for (const word of [inChunk, inTitle]) {
      const found = await index.search({ query: word, maxResults: 10, includeDomains: [host], chunksPerSource: 1 });
      expect(found.map((candidate) => candidate.url)).toEqual([url]);
    }
    const [chunk] = await prisma.$queryRawUnsafe<{ matches: boolean }[]>(
      `SELECT c.vector @@ to_tsquery('english', $2) AS matches FROM document_chunks c JOIN documents d ON d.id = c.document_id WHERE d.url = $1`,
      url,
      inChunk,
    );
    expect(chunk.matches).toBe(true);
  });

  it("indexes a long page's chunks that start within its first 200,000 characters, whole", async () => {
    const url = `https://${host}/long`;
    // Unique words only: no lexeme reaches the 256 positions a vector keeps of one, whatever the order of concatenation.
    const text = Array.from({ length: 9_000 }, (_, line) => `t${line}a and t${line}b of the t${line}c.`).join('\n\n');
    expect(text.length).toBeGreaterThan(250_000);
    await pages.save('operator', webPageOf({ finalUrl: url, title: 'Long', text, language: 'en' }), 'import');
    const vectors = await vectorsOf(url);
    expect(vectors.indexed_chunks).toBeLessThan(vectors.chunks);
    expect(vectors.stored).toBe(vectors.from_chunks);
    // The last chunk that starts before the limit is indexed to its end; the next one not at all.
    const [edge] = await prisma.$queryRawUnsafe<{ last_indexed: string; first_left_out: string }[]>(
      `WITH chunks AS (
         SELECT c.position, c.content, sum(length(c.content)) OVER (ORDER BY c.position) - length(c.content) AS start
         FROM document_chunks c JOIN documents d ON d.id = c.document_id WHERE d.url = $1)
       SELECT (SELECT content FROM chunks WHERE start < 200000 ORDER BY position DESC LIMIT 1) AS last_indexed,
              (SELECT content FROM chunks WHERE start >= 200000 ORDER BY position LIMIT 1) AS first_left_out`,
      url,
    );
    const lastWord = (content: string) => /(t\d+c)\.$/.exec(content)?.[1] as string;
    const firstWord = (content: string) => /^(t\d+a)/.exec(content)?.[1] as string;
    const [indexedWords] = await prisma.$queryRawUnsafe<{ last_indexed: boolean; first_left_out: boolean; first: boolean }[]>(
      `SELECT search_vector @@ to_tsquery('english', $2) AS last_indexed, search_vector @@ to_tsquery('english', $3) AS first_left_out,
              search_vector @@ to_tsquery('english', 't0a') AS first
       FROM documents WHERE url = $1`,
      url,
      lastWord(edge.last_indexed),
      firstWord(edge.first_left_out),
    );
    expect(indexedWords).toEqual({ last_indexed: true, first_left_out: false, first: true });
  });

  it("makes a Chinese page's body from its chunks cut into words", async () => {
    const url = `https://${host}/water-report`;
    const sentence = '委员会发布了关于水质的年度报告，理事会本周讨论了报告的结论。';
    // And a paragraph of 551 characters without a space: the chunker cuts it at 500 characters, through 发布, which
    // is then two words (并发 and 布) in the chunks and in the page's body alike.
    const unspaced = `新${'理事会本周讨论了报告的结论并发布了新的建议。'.repeat(25)}`;
    const text = [...Array.from({ length: 40 }, (_, paragraph) => `${sentence}第${paragraph}段。`), unspaced].join('\n\n');
    await pages.save('operator', webPageOf({ finalUrl: url, title: '水质年度报告', text, language: 'zh' }), 'import');
    const vectors = await vectorsOf(url);
    expect(vectors.chunks).toBeGreaterThan(2);
    expect(vectors.stored).toBe(vectors.from_chunks);
    const [quality] = await prisma.$queryRawUnsafe<{ body_frequency: number }[]>(
      `SELECT p.body_frequency FROM document_postings p JOIN documents d ON d.id = p.document_id WHERE d.url = $1 AND p.lexeme = '水质'`,
      url,
    );
    expect(quality.body_frequency).toBe(40);
    const found = await new LocalIndexProvider(prisma, { statisticsTtlMs: 0 }).search({ query: '理事会讨论', maxResults: 10, includeDomains: [host] });
    expect(found.map((candidate) => candidate.url)).toContain(url);
  });

  it("makes a page's body from its chunks again when they are cut again (chunkUnchunked) or it is indexed again (resegment)", async () => {
    const url = `https://${host}/unchunked`;
    const text = paragraphs(['river', 'canal', 'harbour', 'sluice', 'lock', 'ferry', 'bridge', 'mill']);
    const markdown = `# Waterways\n\n${text}`;
    await pages.save('operator', webPageOf({ finalUrl: url, title: 'Waterways', markdown, text, language: 'en' }), 'import');
    // As a page stored before chunks (migration 20261122040000) and headings (20261124030000): its text parsed whole.
    await prisma.$executeRaw`UPDATE documents SET search_vector = sift_document_vector(language, title, description, '', text) WHERE url = ${url}`;
    await prisma.$executeRaw`DELETE FROM document_chunks WHERE document_id = (SELECT id FROM documents WHERE url = ${url})`;
    expect(await pages.chunkUnchunked()).toBeGreaterThanOrEqual(1);
    const chunked = await vectorsOf(url);
    expect(chunked.chunks).toBeGreaterThan(1);
    expect(chunked.stored).toBe(chunked.from_chunks);
    expect(chunked.stored).not.toMatch(/'waterway':\d+C/);
    await pages.resegment({ batchSize: 50 });
    const resegmented = await vectorsOf(url);
    expect(resegmented.stored).toMatch(/'waterway':1A,\d+C/);
    expect(resegmented.stored).toBe(resegmented.from_chunks);
  });

  it('counts documents by source', async () => {
    const before = await pages.countBySource();
    await pages.save('operator', webPageOf({ finalUrl: `https://${host}/imported`, text: 'Imported text.' }), 'import');
    const after = await pages.countBySource();
    expect(after.import).toBe(before.import + 1);
    expect(await pages.count()).toBeGreaterThanOrEqual(after.import + after.crawl + after.extract - 1);
  });
});
