import { randomUUID } from 'node:crypto';
import { createPrismaClient } from '@sift/persistence';
import type { PrismaClient } from '@sift/persistence';
import { DocumentStore } from './document-store.repository';

describe('DocumentStore (Postgres)', () => {
  let prisma: PrismaClient;
  let store: DocumentStore;
  const host = `store-${randomUUID().slice(0, 8)}.example.de`;

  beforeAll(() => {
    prisma = createPrismaClient(process.env.DATABASE_URL as string, 2);
    store = new DocumentStore(prisma);
  });

  afterAll(async () => {
    await prisma.document.deleteMany({ where: { domain: { endsWith: host } } });
    await prisma.$disconnect();
  });

  it('stores an extraction under its normalised URL and replaces it on the next save', async () => {
    const first = await store.save({
      url: `https://${host}/article?utm_source=feed&b=2&a=1#top`,
      title: ' Die Geschichte ',
      text: 'Die Geschichte der Stadt und ihrer Brücken ist lang und reich an Ereignissen, die man nicht vergisst.',
      publishedDate: '2025-03-01T10:00:00Z',
      images: [{ url: `https://${host}/bridge.jpg`, alt: 'Brücke' }],
      source: 'extract',
    });
    expect(first).toMatchObject({
      url: `https://${host}/article?a=1&b=2`,
      domain: host,
      title: 'Die Geschichte',
      language: 'de',
      countryHints: ['de'],
      images: [{ url: `https://${host}/bridge.jpg`, alt: 'Brücke' }],
      source: 'extract',
    });
    expect(first?.publishedDate?.toISOString()).toBe('2025-03-01T10:00:00.000Z');
    expect(first?.contentHash).toMatch(/^[0-9a-f]{64}$/);

    const second = await store.save({ url: `https://${host}/article?a=1&b=2`, text: 'Neuer Text.', language: 'de-AT', source: 'crawl' });
    expect(second?.id).toBe(first?.id);
    expect(second?.contentHash).not.toBe(first?.contentHash);
    expect(second?.source).toBe('crawl');
    expect(await prisma.document.count({ where: { domain: host } })).toBe(1);
  });

  it('serves the cache only within the freshness window', async () => {
    const url = `https://${host}/cached`;
    await store.save({ url, text: 'Cached page body.', language: 'en', fetchedAt: new Date(Date.now() - 60_000), source: 'extract' });
    expect(await store.getFresh(`${url}#fragment`, 120_000)).toMatchObject({ url, text: 'Cached page body.' });
    expect(await store.getFresh(url, 30_000)).toBeNull();
    expect(await store.getFresh('not a url', 30_000)).toBeNull();
  });

  it('keeps nothing for an account with zero data retention', async () => {
    const url = `https://${host}/secret`;
    expect(await store.save({ url, text: 'Private.', source: 'extract' }, { zeroDataRetention: true })).toBeNull();
    expect(await store.findByUrl(url)).toBeNull();
  });

  it('counts documents by source', async () => {
    const before = await store.countBySource();
    await store.save({ url: `https://${host}/imported`, text: 'Imported text.', source: 'import' });
    const after = await store.countBySource();
    expect(after.import).toBe(before.import + 1);
    expect(await store.count()).toBeGreaterThanOrEqual(after.import + after.crawl + after.extract - 1);
  });
});
