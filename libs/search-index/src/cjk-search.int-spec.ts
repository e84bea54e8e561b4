import { randomUUID } from 'node:crypto';
import { webPageOf } from '@sift/content-extraction';
import { tokenize } from '@sift/ranking';
import { createPrismaClient } from '@sift/persistence';
import type { PrismaClient } from '@sift/persistence';
import { LocalIndexProvider } from './local-index.provider';
import { PageRepository } from '@sift/pages';
import type { SearchQuery } from './search-query';

describe('Chinese and Japanese pages in the local index (words cut by Intl.Segmenter)', () => {
  let prisma: PrismaClient;
  let pages: PageRepository;
  let index: LocalIndexProvider;
  const suffix = randomUUID().slice(0, 8);
  const domain = `cjk-${suffix}.test`;
  const chineseUrl = `https://${domain}/zh/machine-learning`;
  const japaneseUrl = `https://${domain}/ja/tokyo`;
  const englishUrl = `https://${domain}/en/glaciers`;
  // No spaces anywhere in the sentences: before segmentation each was one lexeme, and the query words inside it
  // matched nothing.
  const chineseText =
    '我们实验室正在研究机器学习的新方法，并把它应用在医学图像的分析上。这些方法需要大量的数据和计算资源，研究人员每天都在改进模型的准确率。';
  const japaneseText =
    '東京は日本の首都であり、世界でも有数の大都市です。多くの企業の本社が集まっていて、毎日たくさんの人が電車で通勤しています。';

  beforeAll(async () => {
    prisma = createPrismaClient(process.env.DATABASE_URL as string, 2);
    pages = new PageRepository(prisma);
    // Stored without a declared language, as an import of plain text is: the detector names it.
    await pages.save('operator', webPageOf({ url: chineseUrl, finalUrl: chineseUrl, title: '机器学习研究', text: chineseText }), 'import');
    await pages.save('operator', webPageOf({ url: japaneseUrl, finalUrl: japaneseUrl, title: '東京について', text: japaneseText }), 'import');
    await pages.save(
      'operator',
      webPageOf({ url: englishUrl, finalUrl: englishUrl, title: 'Glaciers', text: `Glaciers of ${suffix} carve valleys and feed rivers.`, language: 'en' }),
      'import',
    );
    index = new LocalIndexProvider(prisma, { statisticsTtlMs: 0 });
  });

  afterAll(async () => {
    await prisma.document.deleteMany({ where: { domain } });
    await prisma.$disconnect();
  });

  /** The URLs of this suite's pages a search returns, best first, on the postings path or the filtered one. */
  async function urls(query: string, options: Partial<SearchQuery> = {}): Promise<string[]> {
    const results = await index.search({ query, maxResults: 20, ...options });
    return results.map((candidate) => candidate.url).filter((url) => new URL(url).hostname === domain);
  }

  it('detects the language of pages stored without one and keeps their text as written', async () => {
    const chinese = await pages.findByUrl(chineseUrl);
    const japanese = await pages.findByUrl(japaneseUrl);
    expect(chinese?.page).toMatchObject({ language: 'zh', text: chineseText });
    expect(japanese?.page).toMatchObject({ language: 'ja', text: japaneseText });
    // BM25's page length counts the words, not the sentences.
    const [{ word_count }] = await prisma.$queryRaw<{ word_count: number }[]>`SELECT word_count FROM documents WHERE url = ${chineseUrl}`;
    expect(word_count).toBe(tokenize(`机器学习研究 ${chineseText}`).length);
    expect(word_count).toBeGreaterThan(30);
  });

  it.each([
    ['机器学习', chineseUrl],
    ['医学图像', chineseUrl],
    ['日本の首都', japaneseUrl],
    ['電車で通勤', japaneseUrl],
  ])('finds the page containing %s inside an unspaced sentence', async (query, expected) => {
    expect((await urls(query))[0]).toBe(expected);
    expect((await urls(query, { includeDomains: [domain] }))[0]).toBe(expected);
  });

  it('returns the chunk with the query words, as the page wrote it', async () => {
    const [result] = (await index.search({ query: '机器学习', maxResults: 20, chunksPerSource: 1, includeDomains: [domain] })).filter(
      (candidate) => candidate.url === chineseUrl,
    );
    expect(result.chunks).toEqual([chineseText]);
  });

  it('indexes again, with words cut, a page stored before segmentation (one lexeme per sentence)', async () => {
    // The page as migration 20261124010000 found it: its vectors made from the unspaced text.
    await prisma.$executeRaw`UPDATE documents SET search_vector = sift_document_vector(language, title, description, '', text) WHERE url = ${chineseUrl}`;
    await prisma.$executeRaw`UPDATE document_chunks SET vector = to_tsvector('simple', content)
                             WHERE document_id = (SELECT id FROM documents WHERE url = ${chineseUrl})`;
    expect(await urls('机器学习')).toEqual([]);
    // A row's xmin changes with every update: the English page must not be rewritten.
    const version = async (url: string) =>
      (await prisma.$queryRaw<{ version: string }[]>`SELECT xmin::text AS version FROM documents WHERE url = ${url}`)[0].version;
    const englishBefore = await version(englishUrl);

    expect(await pages.resegment({ batchSize: 50 })).toBeGreaterThanOrEqual(2);
    expect((await urls('机器学习'))[0]).toBe(chineseUrl);
    expect(await version(englishUrl)).toBe(englishBefore);
  });

  it('leaves English searches as they were', async () => {
    expect(await urls(`glacier ${suffix}`)).toEqual([englishUrl]);
  });
});
