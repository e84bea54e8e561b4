import { randomUUID } from 'node:crypto';
import { webPageOf } from '@sift/content-extraction';
import { createPrismaClient } from '@sift/persistence';
import type { PrismaClient } from '@sift/persistence';
import { createTestAccount } from '@sift/testing';
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
    expect(await pages.getFresh(`${url}#fragment`, 120_000)).toMatchObject({ page: { url, text: 'Cached page body.' } });
    expect(await pages.getFresh(url, 30_000)).toBeNull();
    expect(await pages.getFresh('not a url', 30_000)).toBeNull();
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
    await pages.save('keyless', webPageOf({ finalUrl: url, text: 'Public version.' }), 'extract');
    const account = await createTestAccount(prisma, { plan: 'researcher', zeroDataRetention: true, name: 'zdr-overwrite' });
    expect(await pages.save({ accountId: account.id }, webPageOf({ finalUrl: url, text: 'Private version.' }), 'extract')).toBeNull();
    expect((await pages.findByUrl(url))?.page.text).toBe('Public version.');
  });

  it('stores for an account without zero data retention, keyless callers and the operator', async () => {
    const account = await createTestAccount(prisma, { plan: 'researcher', name: 'normal-store' });
    const before = await prisma.document.count({ where: { domain: host } });
    const owners = [{ accountId: account.id }, pageOwnerOf(account.id), 'keyless', pageOwnerOf('keyless'), 'operator', pageOwnerOf('admin-cli')] as const;
    for (const [index, owner] of owners.entries()) {
      const url = `https://${host}/kept-${index}`;
      expect(await pages.save(owner, webPageOf({ finalUrl: url, text: `Kept ${index}.` }), 'extract')).not.toBeNull();
      expect(await pages.findByUrl(url)).toMatchObject({ page: { text: `Kept ${index}.` } });
    }
    expect(await prisma.document.count({ where: { domain: host } })).toBe(before + owners.length);
  });

  it('stores nothing for an account id that names no account', async () => {
    const url = `https://${host}/nobody`;
    expect(await pages.save({ accountId: randomUUID() }, webPageOf({ finalUrl: url, text: 'Whose?' }), 'extract')).toBeNull();
    expect(await pages.save({ accountId: 'acc-1' }, webPageOf({ finalUrl: url, text: 'Whose?' }), 'extract')).toBeNull();
    expect(await pages.findByUrl(url)).toBeNull();
  });

  it('counts documents by source', async () => {
    const before = await pages.countBySource();
    await pages.save('operator', webPageOf({ finalUrl: `https://${host}/imported`, text: 'Imported text.' }), 'import');
    const after = await pages.countBySource();
    expect(after.import).toBe(before.import + 1);
    expect(await pages.count()).toBeGreaterThanOrEqual(after.import + after.crawl + after.extract - 1);
  });
});
