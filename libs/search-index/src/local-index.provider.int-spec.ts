import { randomUUID } from 'node:crypto';
import { createPrismaClient } from '@sift/persistence';
import type { PrismaClient } from '@sift/persistence';
import { webPageOf, type WebPageFields } from '@sift/content-extraction';
import { createTestAccount, ownResults } from '@sift/testing';
import { PageRepository } from '@sift/pages';
import { CorpusSnapshotCache } from './corpus-snapshot';
import { LocalIndexProvider } from './local-index.provider';
import type { SearchQuery } from './search-query';

type ImportedPage = Omit<WebPageFields, 'finalUrl' | 'publishedDate'> & { url: string; publishedDate?: Date };

/** Stores a page as an import does. */
function importPage(pages: PageRepository, { publishedDate, ...fields }: ImportedPage) {
  return pages.save('operator', webPageOf({ ...fields, finalUrl: fields.url, publishedDate: publishedDate?.toISOString() }), 'import');
}

describe('LocalIndexProvider (Postgres full-text search + BM25F)', () => {
  let prisma: PrismaClient;
  let index: LocalIndexProvider;
  // A word no other test's document contains, so the shared test database cannot leak results in.
  const marker = `zorblax${randomUUID().slice(0, 8).replace(/-/g, '')}`;
  const suffix = randomUUID().slice(0, 8);
  const domain = (name: string) => `${name}-${suffix}.test`;
  const recent = new Date(Date.now() - 2 * 24 * 60 * 60 * 1000);
  const old = new Date('2019-05-01T00:00:00Z');

  beforeAll(async () => {
    prisma = createPrismaClient(process.env.DATABASE_URL as string, 2);
    const store = new PageRepository(prisma);
    const documents = [
      { url: `https://${domain('volcano')}/guide`, title: `${marker} volcano eruptions explained`, text: `Volcanoes erupt when magma rises. ${marker} eruptions of volcanoes are studied by volcanologists who measure magma.`, language: 'en', publishedDate: recent },
      { url: `https://news.${domain('volcano')}/today`, title: 'Eruption today', text: `Breaking: the ${marker} volcano erupted this morning, ash clouds reported.`, language: 'en', publishedDate: recent, isNews: true },
      { url: `https://${domain('history')}/1980`, title: 'History of an eruption', text: `In 1980 the ${marker} mountain erupted; this page recounts the volcano history in detail.`, language: 'en', publishedDate: old },
      { url: `https://${domain('vulkan')}/seite`, title: 'Vulkane', text: `Der ${marker} Vulkan brach aus und die Lava floss in das Tal, sagen die Forscher.`, language: 'de' },
      { url: `https://${domain('adult')}/page`, title: 'Unsafe volcano', text: `An unsafe page about the ${marker} volcano.`, language: 'en', isUnsafe: true },
      { url: `https://${domain('unrelated')}/cooking`, title: 'Cooking pasta', text: `Boil water, add pasta and ${marker} salt.`, language: 'en', countryHints: ['it'] },
    ];
    for (const document of documents) await importPage(store, document);
    index = new LocalIndexProvider(prisma, { statisticsTtlMs: 0 });
  });

  afterAll(async () => {
    await prisma.document.deleteMany({ where: { domain: { endsWith: `${suffix}.test` } } });
    await prisma.$disconnect();
  });

  // Only this file's pages are asserted on (ownResults), from the top 20, so other files' cannot push any of these 6 out.
  const own = <Candidate extends { url: string }>(results: Candidate[]) => ownResults(results, `${suffix}.test`);
  const search = async (query: Partial<SearchQuery>) => own(await index.search({ query: `${marker} volcano eruption`, maxResults: 20, ...query }));
  const hosts = async (query: Partial<SearchQuery>) => (await search(query)).map((candidate) => new URL(candidate.url).hostname);

  it('ranks the page about the query first, with stemming and scores in [0, 1]', async () => {
    const results = await search({});
    expect(results[0].url).toBe(`https://${domain('volcano')}/guide`);
    // The pasta page and the German one share only the marker word with the query: they come last. (The German
    // page once ranked as if it matched the whole query: its configuration's pages have none of the other words,
    // which then did not count in the best score its pages could reach.)
    expect(results.slice(-2).map((candidate) => candidate.url).sort()).toEqual([`https://${domain('unrelated')}/cooking`, `https://${domain('vulkan')}/seite`]);
    for (const candidate of results) {
      expect(candidate.score).toBeGreaterThan(0);
      expect(candidate.score).toBeLessThanOrEqual(1);
      expect(candidate).toMatchObject({ provider: 'local', contentIsSnippet: false });
    }
    const scores = results.map((candidate) => candidate.score);
    expect([...scores].sort((left, right) => right - left)).toEqual(scores);
    // "eruption" matches "erupted" and "eruptions" only through the English stemmer.
    expect(results.map((candidate) => candidate.url)).toContain(`https://${domain('history')}/1980`);
  });

  it('restricts to included domains and their subdomains, and drops excluded ones', async () => {
    expect(new Set(await hosts({ includeDomains: [domain('volcano')] }))).toEqual(new Set([domain('volcano'), `news.${domain('volcano')}`]));
    const excluded = await hosts({ excludeDomains: [`https://www.${domain('volcano')}/`] });
    expect(excluded.length).toBeGreaterThan(0);
    expect(excluded.some((host) => host.endsWith(domain('volcano')))).toBe(false);
  });

  it('boosts rather than filters in include_domains_mode boost', async () => {
    const boosted = await hosts({ includeDomains: [domain('history')], includeDomainsMode: 'boost' });
    expect(boosted[0]).toBe(domain('history'));
    expect(boosted.length).toBeGreaterThan(1);
  });

  it('ranks ultra-fast searches by the pre-ranking alone, with scores in [0, 1], filters and boosts kept', async () => {
    const basic = await search({ depth: 'basic' });
    const ultraFast = await search({ depth: 'ultra-fast' });
    expect(ultraFast[0].url).toBe(`https://${domain('volcano')}/guide`);
    expect(new Set(ultraFast.map((candidate) => candidate.url))).toEqual(new Set(basic.map((candidate) => candidate.url)));
    const scores = ultraFast.map((candidate) => candidate.score);
    expect([...scores].sort((left, right) => right - left)).toEqual(scores);
    for (const score of scores) expect(score > 0 && score <= 1).toBe(true);
    // Another score: idf × impact over the idf mass, not the exact BM25F re-scoring.
    expect(ultraFast[0].score).not.toBeCloseTo(basic[0].score, 6);
    expect(new Set(await hosts({ depth: 'ultra-fast', includeDomains: [domain('volcano')] }))).toEqual(new Set([domain('volcano'), `news.${domain('volcano')}`]));
    expect((await hosts({ depth: 'ultra-fast', includeDomains: [domain('history')], includeDomainsMode: 'boost' }))[0]).toBe(domain('history'));
  });

  it('applies time range and start/end dates to the publish date', async () => {
    const lastWeek = await hosts({ timeRange: 'week' });
    expect(lastWeek).not.toContain(domain('history'));
    expect(lastWeek).toContain(domain('volcano'));
    expect(await hosts({ endDate: '2020-01-01' })).toEqual([domain('history')]);
    expect(await hosts({ startDate: '2019-01-01', endDate: '2019-12-31' })).toEqual([domain('history')]);
  });

  it('filters strictly by language when asked, and only boosts otherwise', async () => {
    const german = own(await index.search({ query: `${marker} Vulkan`, language: 'german', filterByLanguage: true }));
    expect(german.map((candidate) => candidate.language)).toEqual(['de']);
    const english = await hosts({ language: 'en', filterByLanguage: true });
    expect(english).not.toContain(domain('vulkan'));
  });

  it('keeps only news articles, with their publish date, for topic news', async () => {
    const news = await search({ topic: 'news' });
    expect(news).toHaveLength(1);
    expect(news[0]).toMatchObject({ url: `https://news.${domain('volcano')}/today`, publishedDate: recent.toISOString() });
  });

  it('drops unsafe pages under safe search only', async () => {
    expect(await hosts({})).toContain(domain('adult'));
    expect(await hosts({ safeSearch: true })).not.toContain(domain('adult'));
  });

  it('requires the quoted phrases under exact_match', async () => {
    const exact = await index.search({ query: `"the ${marker} volcano erupted" eruption`, exactMatch: true });
    expect(exact.map((candidate) => candidate.url)).toEqual([`https://news.${domain('volcano')}/today`]);
  });

  it('boosts pages of the requested country', async () => {
    // Compared with the same query without a country, so the shared database's corpus statistics cannot decide it.
    const query = `${marker} salt volcano`;
    const scoreOf = (results: { url: string; score: number }[], host: string) => results.find((result) => new URL(result.url).hostname === host)?.score ?? 0;
    const italianOverVolcano = (results: { url: string; score: number }[]) => scoreOf(results, domain('unrelated')) / scoreOf(results, domain('volcano'));
    const plain = await index.search({ query });
    const boosted = await index.search({ query, country: 'italy' });
    expect(italianOverVolcano(boosted)).toBeGreaterThan(italianOverVolcano(plain) * 1.1);
    // Under topic news only news articles remain, whatever the country.
    const news = await index.search({ query, country: 'italy', topic: 'news' });
    expect(news.some((result) => new URL(result.url).hostname === domain('unrelated'))).toBe(false);
  });

  it('finds a page indexed after its cached corpus snapshot was taken, by a word the snapshot lacks', async () => {
    const cached = new LocalIndexProvider(prisma, { statisticsTtlMs: 60_000 });
    const newWord = `quuxite${randomUUID().slice(0, 8)}`;
    expect(await cached.search({ query: `${marker} ${newWord}` })).not.toHaveLength(0);
    expect(await cached.search({ query: newWord })).toEqual([]);
    await importPage(new PageRepository(prisma), { url: `https://${domain('late')}/page`, title: `${newWord} minerals`, text: `A page about ${newWord} and ${marker}.`, language: 'en' });
    const found = await cached.search({ query: newWord });
    expect(found.map((candidate) => candidate.url)).toEqual([`https://${domain('late')}/page`]);
  });

  it('keeps the postings in step with each document through inserts, edits and deletes', async () => {
    const store = new PageRepository(prisma);
    const word = `postingword${randomUUID().slice(0, 8)}`;
    const url = `https://${domain('postings')}/page`;
    const postingsOf = async () =>
      prisma.$queryRaw<{ lexeme: string; impact: number }[]>`
        SELECT p.lexeme, p.impact FROM document_postings p JOIN documents d ON d.id = p.document_id WHERE d.url = ${url} ORDER BY p.lexeme`;
    await importPage(store, { url, title: `${word} title`, text: `${marker} body text about ${word}.`, language: 'en' });
    const inserted = await postingsOf();
    expect(inserted.map((posting) => posting.lexeme)).toEqual(expect.arrayContaining([word, marker, 'bodi', 'titl']));
    for (const posting of inserted) expect(posting.impact).toBeGreaterThan(0);
    // In the title (weight 2) and the body: a stronger posting than the body-only marker word.
    expect(inserted.find((posting) => posting.lexeme === word)!.impact).toBeGreaterThan(inserted.find((posting) => posting.lexeme === marker)!.impact);

    await importPage(store, { url, title: 'renamed', text: `${marker} replaced words.`, language: 'en' });
    const edited = (await postingsOf()).map((posting) => posting.lexeme);
    expect(edited).toEqual(expect.arrayContaining(['renam', 'replac', marker]));
    expect(edited).not.toContain(word);

    await prisma.document.deleteMany({ where: { url } });
    expect(await postingsOf()).toEqual([]);
  });

  it('stores per lexeme its body count and its title, description and headings occurrences normalised by field length (BM25F)', async () => {
    const store = new PageRepository(prisma);
    const word = `freqword${randomUUID().slice(0, 8)}`;
    const url = `https://${domain('frequencies')}/page`;
    const body = `${word} ${word} ${word} plain filler words and more filler for length. `.repeat(4);
    await importPage(store, {
      url,
      title: `${word} heading`,
      description: `about ${word}`,
      markdown: `# ${word} setup\n\n${body}\n\n## Other notes\n\n#### Deep detail`,
      text: body,
      language: 'en',
    });
    const rows = await prisma.$queryRaw<{ lexeme: string; field_frequency: number; body_frequency: number }[]>`
      SELECT p.lexeme, p.field_frequency, p.body_frequency
      FROM document_postings p JOIN documents d ON d.id = p.document_id
      WHERE d.url = ${url} AND p.lexeme IN (${word}, 'head', 'filler', 'note', 'detail')`;
    const byLexeme = new Map(rows.map((row) => [row.lexeme, row]));
    // Title 2 / (0.5 + 0.5 × 2 words / 8), description 1.5 / (0.5 + 0.5 × 1 / 20) ("about" is a stop word),
    // headings 1.5 / (0.5 + 0.5 × 3 / 30) (h1 and h2: "freqword… setup", "other notes", "other" a stop word; the
    // h4 is not read).
    const title = 2 / (0.5 + 0.5 * (2 / 8));
    const headings = 1.5 / (0.5 + 0.5 * (3 / 30));
    expect(byLexeme.get(word)?.field_frequency).toBeCloseTo(title + 1.5 / (0.5 + 0.5 * (1 / 20)) + headings, 4);
    expect(byLexeme.get(word)?.body_frequency).toBe(12);
    expect(byLexeme.get('head')).toMatchObject({ body_frequency: 0 });
    expect(byLexeme.get('head')?.field_frequency).toBeCloseTo(title, 4);
    expect(byLexeme.get('note')?.field_frequency).toBeCloseTo(headings, 4);
    expect(byLexeme.get('filler')).toEqual({ lexeme: 'filler', field_frequency: 0, body_frequency: 8 });
    expect(byLexeme.has('detail')).toBe(false);
    await prisma.document.deleteMany({ where: { url } });
  });

  it("damps a title word by the title's length, not the page's: a long page titled with the query beats short ones that mention it", async () => {
    const store = new PageRepository(prisma);
    const word = `titleword${suffix}`;
    const filler = Array.from({ length: 3000 }, (_value, position) => `lorem${position % 300}`).join(' ');
    await importPage(store, { url: `https://${domain('field-length')}/manual`, title: `${word} manual`, text: `${filler} ${word} ${filler}`, language: 'en' });
    for (const name of ['one', 'two']) {
      await importPage(store, { url: `https://${domain('field-length')}/${name}`, title: `Notes ${name}`, text: `Some notes that mention ${word} in passing, among other things.`, language: 'en' });
    }
    const ranked = await new LocalIndexProvider(prisma, { statisticsTtlMs: 0 }).search({ query: word, maxResults: 3 });
    expect(ranked[0].url).toBe(`https://${domain('field-length')}/manual`);
  });

  it('ranks a page with the query words next to each other above one with the same words apart, at advanced depth only', async () => {
    const store = new PageRepository(prisma);
    const [first, second] = [`proxima${suffix}`, `proximb${suffix}`];
    // The same words, as often, in pages of the same length: only their order differs.
    await importPage(store, { url: `https://${domain('proximity')}/together`, title: 'Notes', text: `${first} ${second} alpha beta gamma delta.`, language: 'en' });
    await importPage(store, { url: `https://${domain('proximity')}/apart`, title: 'Notes', text: `${first} alpha beta gamma ${second} delta.`, language: 'en' });
    const ranked = async (depth: SearchQuery['depth']) =>
      (await index.search({ query: `${first} ${second}`, maxResults: 2, depth })).map((candidate) => [new URL(candidate.url).pathname, candidate.score] as const);
    const basic = await ranked('basic');
    expect(basic).toHaveLength(2);
    expect(basic[0][1]).toBeCloseTo(basic[1][1], 10);
    const advanced = await ranked('advanced');
    expect(advanced.map(([path]) => path)).toEqual(['/together', '/apart']);
    expect(advanced[0][1]).toBeGreaterThan(advanced[1][1]);
  });

  it("ranks a page answering the query in one passage above a page whose words lie in separate passages, at advanced depth only", async () => {
    const store = new PageRepository(prisma);
    const [first, second] = [`passagea${suffix}`, `passageb${suffix}`];
    // Paragraphs of about 400 characters: each is a chunk of its own. Both pages have the same length; the spread
    // page names the first word twice, so its terms alone rank it first.
    const filler = (seed: number) => Array.from({ length: 60 }, (_value, position) => `filler${(seed * 60 + position) % 97}`).join(' ');
    const paragraphs = (words: string[]) => words.map((word, position) => `${filler(position)} ${word}.`).join('\n\n');
    const spread = paragraphs([first, 'plain', 'plain', second, 'plain', first]);
    const together = paragraphs([`${first} alpha beta gamma delta epsilon zeta eta ${second}`, 'plain', 'plain', 'plain', 'plain', 'plain']);
    await importPage(store, { url: `https://${domain('passages')}/spread`, title: 'Notes', text: spread, language: 'en' });
    await importPage(store, { url: `https://${domain('passages')}/together`, title: 'Notes', text: together, language: 'en' });
    const ranked = async (depth: SearchQuery['depth']) =>
      (await index.search({ query: `${first} ${second}`, maxResults: 2, depth })).map((candidate) => new URL(candidate.url).pathname);
    expect(await ranked('basic')).toEqual(['/spread', '/together']);
    expect(await ranked('advanced')).toEqual(['/together', '/spread']);
  });

  it('ranks unfiltered searches (postings) as filtered ones (GIN index) do when the filter keeps every page', async () => {
    const unfiltered = await search({});
    // A time window reaching back past every page sends the same search through the GIN index path.
    const filtered = await search({ startDate: '1990-01-01' });
    expect(filtered.map((candidate) => candidate.url)).toEqual(unfiltered.map((candidate) => candidate.url));
    filtered.forEach((candidate, index) => expect(candidate.score).toBeCloseTo(unfiltered[index].score, 5));
  });

  it('pre-ranks filtered candidates as the postings path does, so a tight candidate limit keeps the same pages', async () => {
    const store = new PageRepository(prisma);
    const word = `quillon${suffix}`;
    const filler = Array.from({ length: 1000 }, (_value, position) => `filler${position % 50}`).join(' ');
    // Both other pages repeat the query's words in a short text; the long one mentions all three words once. Counting
    // which query words a page contains (the GIN path's former pre-ranking) put the long page among the two.
    await importPage(store, { url: `https://${domain('prerank')}/full`, title: `${word} gamma delta`, text: `${word} gamma delta, ${word} gamma delta.`, language: 'en' });
    await importPage(store, { url: `https://${domain('prerank')}/partial`, title: `${word} gamma`, text: `${word} gamma, ${word} gamma gamma.`, language: 'en' });
    await importPage(store, { url: `https://${domain('prerank')}/long`, title: 'Notes', text: `${filler} ${word} gamma delta ${filler}`, language: 'en' });
    const tight = new LocalIndexProvider(prisma, { statisticsTtlMs: 0, candidateLimit: 2 });
    const query = { query: `${word} gamma delta`, maxResults: 2 };
    const unfiltered = (await tight.search(query)).map((candidate) => candidate.url);
    const filtered = (await tight.search({ ...query, includeDomains: [domain('prerank')] })).map((candidate) => candidate.url);
    expect(unfiltered).toEqual([`https://${domain('prerank')}/full`, `https://${domain('prerank')}/partial`]);
    expect(filtered).toEqual(unfiltered);
  });

  it("normalises a short page's length among its own site's pages when long pages elsewhere inflate the average", async () => {
    const store = new PageRepository(prisma);
    const word = `brindle9${suffix}`;
    const words = (count: number, seed: number) => Array.from({ length: count }, (_value, index) => `filler${(index + seed) % 90}`).join(' ');
    // Most of the corpus is long manual pages.
    for (let position = 0; position < 60; position += 1) {
      await importPage(store, { url: `https://${domain('manuals')}/page-${position}`, title: 'Manual', text: words(1500, position), language: 'en' });
    }
    // A site of a hundred abstracts, and the same short and longer abstract on a site too small to have its own average.
    for (let position = 0; position < 98; position += 1) {
      await importPage(store, { url: `https://${domain('abstracts')}/other-${position}`, title: 'Abstract', text: words(60, position), language: 'en' });
    }
    for (const site of ['abstracts', 'loose']) {
      await importPage(store, { url: `https://${domain(site)}/short`, title: 'Abstract', text: `${word} ${word} ${words(18, 1)}`, language: 'en' });
      await importPage(store, { url: `https://${domain(site)}/long`, title: 'Abstract', text: `${word} ${word} ${words(118, 2)}`, language: 'en' });
    }
    const scores = new Map((await index.search({ query: word, maxResults: 10 })).map((candidate) => [candidate.url, candidate.score]));
    const shortOverLong = (site: string) => (scores.get(`https://${domain(site)}/short`) ?? 0) / (scores.get(`https://${domain(site)}/long`) ?? 1);
    // Against the inflated corpus average both abstracts look equally short; among abstracts the longer one is long.
    expect(shortOverLong('abstracts')).toBeGreaterThan(shortOverLong('loose') * 1.02);
  });

  it("drops the query's function words, found from its language's stop words, before other languages read them", async () => {
    const store = new PageRepository(prisma);
    const word = `mordant${suffix}`;
    await importPage(store, { url: `https://${domain('english')}/guide`, title: 'Dyeing cloth', text: `A ${word} fixes the dye in the cloth before it is washed.`, language: 'en' });
    // An English quotation filed as German: under the german configuration "can", "it", "do" are ordinary words.
    await importPage(store, { url: `https://${domain('german')}/zitat`, title: `Zitat über ${word}`, text: `Er sagte: "I can do it, can you do it? Yes we can do it." Dann sprach er über ${word}.`, language: 'de' });
    // One snapshot of the corpus's statistics for both searches (pages other test files store would move the scores).
    const held = new LocalIndexProvider(prisma, { statisticsTtlMs: 600_000, statisticsRefreshShare: Infinity });
    const scores = async (text: string) => (await held.search({ query: text, maxResults: 2 })).map((candidate) => [candidate.url, candidate.score.toFixed(6)]);
    // The question ranks as its content word alone: "can", "I", "do", "it", "with" are English stop words.
    expect(await scores(`can I do it with ${word}`)).toEqual(await scores(word));
  });

  it("counts a word's document frequency among the pages of its own language", async () => {
    const store = new PageRepository(prisma);
    // Words with a digit are indexed unstemmed by every configuration, so both languages share the lexeme.
    const rare = `kvrt9${suffix}`;
    const common = `plon9${suffix}`;
    await importPage(store, { url: `https://${domain('idf-en')}/rare`, title: `${rare} note`, text: `The ${rare} is described here.`, language: 'en' });
    for (let position = 0; position < 3; position += 1) {
      await importPage(store, { url: `https://${domain('idf-en')}/common-${position}`, title: `${common} note`, text: `The ${common} is described here.`, language: 'en' });
    }
    // Many German pages use the word that is rare among the English ones.
    for (let position = 0; position < 8; position += 1) {
      await importPage(store, { url: `https://${domain('idf-de')}/seite-${position}`, title: `${rare} Seite`, text: `Das ${rare} wird hier beschrieben, Seite ${position}.`, language: 'de' });
    }
    const results = await index.search({ query: `${rare} ${common}`, maxResults: 20, includeDomains: [domain('idf-en')] });
    expect(results[0].url).toBe(`https://${domain('idf-en')}/rare`);
  });

  it('expands an advanced search from its best pages (RM3), finding a page in their words without the query words', async () => {
    const store = new PageRepository(prisma);
    const word = `tessolar${suffix}`;
    const related = `vintrel${suffix}`;
    await importPage(store, { url: `https://${domain('feedback')}/one`, title: `${word} guide`, text: `${word} needs ${related}; ${related} keeps ${word} working.`, language: 'en' });
    await importPage(store, { url: `https://${domain('feedback')}/two`, title: `${word} notes`, text: `Each ${word} has a ${related}, and the ${related} matters.`, language: 'en' });
    const withoutWord = `https://${domain('feedback')}/related`;
    await importPage(store, { url: withoutWord, title: `${related} handbook`, text: `All about the ${related} and how a ${related} is built.`, language: 'en' });
    for (const filter of [{}, { includeDomains: [domain('feedback')] }]) {
      const basic = (await index.search({ query: word, maxResults: 10, depth: 'basic', ...filter })).map((candidate) => candidate.url);
      const advanced = (await index.search({ query: word, maxResults: 10, depth: 'advanced', ...filter })).map((candidate) => candidate.url);
      expect(basic).not.toContain(withoutWord);
      expect(advanced).toContain(withoutWord);
      // The query's own pages stay ahead of the page found through the expansion.
      expect(advanced.indexOf(withoutWord)).toBe(2);
    }
  });

  it('weighs the query words in an advanced search as its best pages use them (RM3 keeps the query in its model)', async () => {
    const store = new PageRepository(prisma);
    const stressed = `quellmark${suffix}`;
    const passing = `dravinet${suffix}`;
    // The best pages say the first word again and again and the second once; one page has only the first word,
    // another only the second, in the same words otherwise, so basic depth cannot tell them apart.
    for (let position = 0; position < 3; position += 1) {
      await importPage(store, { url: `https://${domain('weighed')}/best-${position}`, title: `${stressed} ${passing} report`, text: `${stressed} ${stressed} ${stressed} ${stressed} and one ${passing} in the field report ${position}.`, language: 'en' });
    }
    const withStressed = `https://${domain('weighed')}/stressed`;
    const withPassing = `https://${domain('weighed')}/passing`;
    await importPage(store, { url: withStressed, title: 'Field sheet', text: `A field sheet naming ${stressed} once.`, language: 'en' });
    await importPage(store, { url: withPassing, title: 'Field sheet', text: `A field sheet naming ${passing} once.`, language: 'en' });
    for (const filter of [{}, { includeDomains: [domain('weighed')] }]) {
      const scoreOf = async (depth: 'basic' | 'advanced', url: string) => {
        const results = await index.search({ query: `${stressed} ${passing}`, maxResults: 10, depth, ...filter });
        return results.find((candidate) => candidate.url === url)?.score ?? 0;
      };
      expect(await scoreOf('basic', withStressed)).toBeCloseTo(await scoreOf('basic', withPassing), 9);
      // Before, the query's own words kept their weights and only new words came from the model: the two tied.
      expect(await scoreOf('advanced', withStressed)).toBeGreaterThan((await scoreOf('advanced', withPassing)) + 0.01);
    }
  });

  /**
   * An owner and another account, and two shared pages on the site with the same words but for the URL (a reference
   * and a note): without links the two score alike.
   */
  const givenTwoSheets = async (store: PageRepository, site: string, word: string) => {
    const [owner, other] = await Promise.all(['owner', 'other'].map((name) => createTestAccount(prisma, { plan: 'researcher', name: `${site}-${name}-${suffix}` })));
    const [reference, note] = ['reference', 'note'].map((path) => `https://${domain(site)}/${path}`);
    for (const url of [reference, note]) await importPage(store, { url, title: 'Field sheet', text: `A field sheet naming ${word} once.`, language: 'en' });
    return { owner, other, reference, note };
  };

  it("ranks a page other pages link to above one that matches as well at advanced depth, counting only the links of pages the viewer may see", async () => {
    const store = new PageRepository(prisma);
    const word = `plimsorth${suffix}`;
    const { owner, other, reference, note } = await givenTwoSheets(store, 'linked', word);
    // Three shared pages link to the reference; three pages private to one account link to the note. None has the word.
    for (let position = 0; position < 3; position += 1) {
      await importPage(store, { url: `https://${domain('linked')}/chapter-${position}`, title: 'Chapter', markdown: `Read [the sheet](${reference}) first.`, text: 'Read the sheet first.', language: 'en' });
      await store.save({ accountId: owner.id }, webPageOf({ finalUrl: `https://${domain('linked')}/private-${position}`, title: 'Private', markdown: `Read [the sheet](${note}).`, text: 'Read the sheet.', language: 'en' }), 'extract');
    }
    for (const depth of ['ultra-fast', 'basic', 'advanced'] as const) {
      for (const filter of [{}, { includeDomains: [domain('linked')] }]) {
        const scoresFor = async (viewer?: SearchQuery['viewer']) => {
          const results = await index.search({ query: word, maxResults: 10, depth, viewer, ...filter });
          return [reference, note].map((url) => results.find((candidate) => candidate.url === url)?.score ?? 0);
        };
        for (const viewer of [undefined, { accountId: other.id }]) {
          const [referenceScore, noteScore] = await scoresFor(viewer);
          expect(noteScore).toBeGreaterThan(0);
          // Three links: 1 + 0.5 × 3 / 8 = 1.19 over the site's mean, about 1.02. Basic and ultra-fast depth have no prior.
          if (depth === 'advanced') expect(referenceScore).toBeGreaterThan(noteScore * 1.1);
          else expect(referenceScore).toBeCloseTo(noteScore, 9);
        }
        // The owner sees three links to each.
        const [referenceScore, noteScore] = await scoresFor({ accountId: owner.id });
        expect(referenceScore).toBeCloseTo(noteScore, 9);
      }
    }
  });

  it("counts a linking page once when the viewer has its own copy of it beside the shared one, and counts the links only its copy has", async () => {
    const store = new PageRepository(prisma);
    const word = `drenwick${suffix}`;
    const { owner, other, reference, note } = await givenTwoSheets(store, 'copied', word);
    // The shared chapter links to the reference; the owner's copy of the same chapter links to the reference and the note.
    const chapter = `https://${domain('copied')}/chapter`;
    await importPage(store, { url: chapter, title: 'Chapter', markdown: `Read [the sheet](${reference}) first.`, text: 'Read the sheet first.', language: 'en' });
    await store.save({ accountId: owner.id }, webPageOf({ finalUrl: chapter, title: 'Chapter', markdown: `Read [the sheet](${reference}), then [the note](${note}).`, text: 'Read the sheet, then the note.', language: 'en' }), 'extract');
    const held = new LocalIndexProvider(prisma, { statisticsTtlMs: 600_000, statisticsRefreshShare: Infinity });
    for (const filter of [{}, { includeDomains: [domain('copied')] }]) {
      const scoresFor = async (viewer: SearchQuery['viewer']) => {
        const results = await held.search({ query: word, maxResults: 10, depth: 'advanced', viewer, ...filter });
        return [reference, note].map((url) => results.find((candidate) => candidate.url === url)?.score ?? 0);
      };
      const [otherReference, otherNote] = await scoresFor({ accountId: other.id });
      const [ownerReference, ownerNote] = await scoresFor({ accountId: owner.id });
      expect(otherReference).toBeGreaterThan(otherNote);
      // One linking page (the chapter) for the reference, whichever copies of it the viewer sees.
      expect(ownerReference).toBeCloseTo(otherReference, 9);
      // The note is linked from the owner's copy alone: one linking page too.
      expect(ownerNote).toBeCloseTo(ownerReference, 9);
    }
  });

  it('does not lift a site whose pages link to one another above the same pages without links (advanced depth)', async () => {
    const store = new PageRepository(prisma);
    const word = `quillvane${suffix}`;
    const pages = 30;
    // Two sites of the same 30 pages; on one, each page links to the next ten. Each of its pages has a link prior of
    // 1.33, and its site's mean is 1.29: the prior orders a site's pages, it does not rank one site above another.
    for (const site of ['mesh', 'plain']) {
      for (let position = 0; position < pages; position += 1) {
        const url = (at: number) => `https://${domain(site)}/page-${at % pages}`;
        const text = position === 0 ? `A field sheet naming ${word} once.` : `A field sheet of the weave, part ${position}.`;
        const links = site === 'mesh' ? Array.from({ length: 10 }, (_, step) => ` [next](${url(position + step + 1)})`).join('') : '';
        await importPage(store, { url: url(position), title: 'Field sheet', markdown: `${text}${links}`, text, language: 'en' });
      }
    }
    for (const filter of [{}, { includeDomains: [domain('mesh'), domain('plain')] }]) {
      const results = await index.search({ query: word, maxResults: 10, depth: 'advanced', ...filter });
      const [mesh, plain] = ['mesh', 'plain'].map((site) => results.find((candidate) => candidate.url === `https://${domain(site)}/page-0`)?.score ?? 0);
      expect(plain).toBeGreaterThan(0);
      expect(mesh / plain).toBeLessThan(1.1);
    }
    // Above the lexeme table's bound the sites' means are not taken (a scan of the whole link graph): the prior goes
    // undivided.
    const large = new LocalIndexProvider(prisma, { statisticsTtlMs: 0, lexemeTableMaximumDocuments: 1 });
    const results = await large.search({ query: word, maxResults: 10, depth: 'advanced' });
    const [mesh, plain] = ['mesh', 'plain'].map((site) => results.find((candidate) => candidate.url === `https://${domain(site)}/page-0`)?.score ?? 0);
    expect(mesh / plain).toBeGreaterThan(1.25);
    // Only advanced depth reads the sites' means: basic and ultra-fast searches never build them.
    const built = jest.spyOn(CorpusSnapshotCache.prototype, 'siteLinkPriors');
    try {
      const fresh = new LocalIndexProvider(prisma, { statisticsTtlMs: 60_000 });
      for (const depth of ['basic', 'ultra-fast'] as const) expect((await fresh.search({ query: word, maxResults: 10, depth })).length).toBeGreaterThan(0);
      expect(built).not.toHaveBeenCalled();
      await fresh.search({ query: word, maxResults: 10, depth: 'advanced' });
      expect(built).toHaveBeenCalledTimes(1);
    } finally {
      built.mockRestore();
    }
  });

  it('ranks the page a query names by its title above pages that use its words as much, at every depth and on both paths', async () => {
    const store = new PageRepository(prisma);
    const word = `tarnvelt${suffix}`;
    const named = `https://${domain('named')}/tarnvelt-sweep`;
    const other = `https://${domain('named')}/sweeping-notes`;
    // The same words, the same number of times, in title and text alike; one page is called "<word> sweep", the other
    // "sweep <word>".
    await importPage(store, { url: named, title: `${word} sweep`, text: `Sweep the ${word} yard before the frost.`, language: 'en' });
    await importPage(store, { url: other, title: `Sweep ${word}`, text: `Sweep the ${word} yard before the frost.`, language: 'en' });
    for (const depth of ['ultra-fast', 'basic', 'advanced'] as const) {
      for (const filter of [{}, { includeDomains: [domain('named')] }]) {
        const scoreOf = async (query: string) => {
          const results = await index.search({ query, maxResults: 10, depth, ...filter });
          return (url: string) => results.find((candidate) => candidate.url === url)?.score ?? 0;
        };
        const naming = await scoreOf(`how often should I ${word} sweep it`);
        expect(naming(named)).toBeGreaterThan(naming(other) * 1.1);
        // The same words in another order name nothing: the two pages score alike.
        const unnamed = await scoreOf(`sweep it, how often should I ${word}`);
        expect(unnamed(named)).toBeCloseTo(unnamed(other), 3);
      }
    }
  });

  it('orders pages the boosts lift past a score of 1 by their boosted relevance, not by id', async () => {
    const store = new PageRepository(prisma);
    const word = `brisqual${suffix}`;
    const page = (name: string, times: number) => ({ url: `https://${domain('capped')}/${name}`, title: `${word} sheet`, text: `${Array(times).fill(word).join(' ')} on one sheet.`, language: 'en' });
    const [first, second] = await Promise.all([importPage(store, page('a', 3)), importPage(store, page('b', 3))]);
    // Ties are broken by id: the page with the larger id is made the better match (stored again, it keeps its id), so
    // ordering by the capped score would put it second.
    const [lower, higher] = [first, second].sort((left, right) => (left!.id < right!.id ? -1 : 1));
    await importPage(store, page(new URL(higher!.page.url).pathname.slice(1), 6));
    for (const depth of ['ultra-fast', 'basic', 'advanced'] as const) {
      // Advanced depth's expansion words ("sheet") also find other tests' pages, further down.
      const results = (await index.search({ query: word, maxResults: 10, depth, includeDomains: [domain('capped')], includeDomainsMode: 'boost' })).slice(0, 2);
      expect(results.map((candidate) => candidate.score)).toEqual([1, 1]);
      expect(results.map((candidate) => candidate.url)).toEqual([higher!.page.url, lower!.page.url]);
    }
  });

  it('stores each document cut into chunks, and re-cuts it when it is stored again', async () => {
    const store = new PageRepository(prisma);
    const url = `https://${domain('chunked')}/long`;
    const paragraph = (topic: string) => `${topic} `.repeat(60).trim() + '.';
    const chunksOf = async () =>
      prisma.$queryRaw<{ position: number; content: string; word_count: number }[]>`
        SELECT c.position, c.content, c.word_count FROM document_chunks c JOIN documents d ON d.id = c.document_id
        WHERE d.url = ${url} ORDER BY c.position`;
    await importPage(store, { url, title: 'Long page', text: [paragraph('alpha'), paragraph('beta'), paragraph('gamma')].join('\n\n'), language: 'en' });
    const first = await chunksOf();
    expect(first.map((chunk) => chunk.position)).toEqual([0, 1, 2]);
    expect(first[1]).toMatchObject({ content: paragraph('beta'), word_count: 60 });
    await importPage(store, { url, title: 'Long page', text: paragraph('delta'), language: 'en' });
    expect((await chunksOf()).map((chunk) => chunk.content)).toEqual([paragraph('delta')]);
  });

  it('returns the best stored chunks per result when asked, and the text when a page has none', async () => {
    const store = new PageRepository(prisma);
    const url = `https://${domain('passages')}/page`;
    const filler = (word: string) => `${word} `.repeat(80).trim() + '.';
    await importPage(store, {
      url,
      title: `${marker} passages`,
      text: [filler('lorem'), `The ${marker} glacier calves icebergs into the fjord every summer.`, filler('ipsum'), filler('dolor')].join('\n\n'),
      language: 'en',
    });
    const query = `${marker} glacier icebergs`;
    const [best] = (await index.search({ query, chunksPerSource: 1 })).filter((candidate) => candidate.url === url);
    expect(best.chunks).toEqual([`The ${marker} glacier calves icebergs into the fjord every summer.`]);
    expect(best.content).toBe('');
    // The stored page's hash, not one of the (empty) text the result carries.
    const [stored] = await prisma.$queryRaw<{ content_hash: string }[]>`SELECT content_hash FROM documents WHERE url = ${url}`;
    expect(best.contentHash).toBe(stored.content_hash);
    const [two] = (await index.search({ query, chunksPerSource: 2, includeText: true })).filter((candidate) => candidate.url === url);
    expect(two.chunks).toHaveLength(2);
    expect(two.chunks![1]).toContain('glacier');
    expect(two.content).toContain(filler('dolor'));

    // A page stored before chunks existed (none in the table) comes back with its text, for the caller to cut.
    await prisma.$executeRaw`DELETE FROM document_chunks WHERE document_id = (SELECT id FROM documents WHERE url = ${url})`;
    const [unchunked] = (await index.search({ query, chunksPerSource: 1 })).filter((candidate) => candidate.url === url);
    expect(unchunked.chunks).toBeUndefined();
    expect(unchunked.content).toContain('calves icebergs');
  });

  it('returns nothing for a query without any indexed word', async () => {
    expect(await index.search({ query: `nonexistentword${suffix}` })).toEqual([]);
    expect(await index.search({ query: 'the of and' })).toEqual([]);
  });

  it("returns as many pages as asked when the viewer's own copy of a page and the shared copy both match, at every depth and on both paths", async () => {
    const store = new PageRepository(prisma);
    const account = await createTestAccount(prisma, { plan: 'researcher', name: `index-copies-${suffix}` });
    const word = `plintar${suffix}`;
    const copied = `https://${domain('copies')}/manual`;
    const page = { finalUrl: copied, title: `${word} manual`, text: `The ${word} manual: ${word} setup, ${word} tuning and ${word} repair.`, language: 'en' };
    await importPage(store, { ...page, url: copied });
    await store.save({ accountId: account.id }, webPageOf(page), 'extract');
    const other = `https://${domain('copies')}/faq`;
    await importPage(store, { url: other, title: 'Questions', text: `Questions about the ${word}.`, language: 'en' });
    for (const depth of ['ultra-fast', 'basic', 'advanced'] as const) {
      for (const filter of [{}, { includeDomains: [domain('copies')] }]) {
        const urls = (await index.search({ query: word, depth, maxResults: 2, viewer: { accountId: account.id }, ...filter })).map((candidate) => candidate.url);
        expect({ depth, filter, urls }).toEqual({ depth, filter, urls: [copied, other] });
      }
    }
  });

  it("returns an account's own pages and the shared ones, never another account's, on both candidate paths", async () => {
    const store = new PageRepository(prisma);
    const [owner, other] = await Promise.all(['owner', 'other'].map((name) => createTestAccount(prisma, { plan: 'researcher', name: `index-${name}-${suffix}` })));
    const privateWord = `quorvex${suffix}`;
    const privateUrl = `https://${domain('private')}/notes?token=${suffix}`;
    const secretWord = `zelquat${suffix}`;
    await store.save({ accountId: owner.id }, webPageOf({ finalUrl: privateUrl, title: `${privateWord} notes`, text: `Private ${privateWord} notes of one account, ${secretWord}.`, language: 'en' }), 'extract');
    await importPage(store, { url: `https://${domain('sharedword')}/page`, title: `${privateWord} atlas`, text: `The shared ${privateWord} atlas.`, language: 'en' });
    const urls = async (query: Partial<SearchQuery>) => (await index.search({ query: privateWord, maxResults: 10, ...query })).map((candidate) => candidate.url).sort();
    const shared = `https://${domain('sharedword')}/page`;
    // Unfiltered (postings) and filtered (GIN) candidates.
    for (const filter of [{}, { includeDomains: [domain('private'), domain('sharedword')] }]) {
      // A word only the owner's private page contains changes nothing for anyone else, not even the scores: for
      // them it is a word no page has. The scores are compared under one snapshot of the corpus's statistics:
      // other test files store pages meanwhile, and a snapshot taken per search would move the page count and
      // mean length between the two searches.
      const held = new LocalIndexProvider(prisma, { statisticsTtlMs: 600_000, statisticsRefreshShare: Infinity });
      const scores = async (query: string, viewer: SearchQuery['viewer']) =>
        (await held.search({ query, maxResults: 10, viewer, ...filter })).map((candidate) => [candidate.url, candidate.score]);
      const absentWord = `zelquit${suffix}`;
      expect(await scores(`${privateWord} ${secretWord}`, { accountId: other.id })).toEqual(await scores(`${privateWord} ${absentWord}`, { accountId: other.id }));
      expect(await scores(`${privateWord} ${secretWord}`, { accountId: owner.id })).not.toEqual(await scores(privateWord, { accountId: owner.id }));
      expect(await urls({ ...filter, viewer: { accountId: owner.id } })).toEqual([privateUrl, shared].sort());
      expect(await urls({ ...filter, viewer: { accountId: other.id } })).toEqual([shared]);
      expect(await urls({ ...filter, viewer: 'keyless' })).toEqual([shared]);
      expect(await urls(filter)).toEqual([shared]);
    }
  });
});
