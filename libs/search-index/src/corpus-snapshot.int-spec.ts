import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyMigrations, createPrismaClient, ensureDatabaseExists } from '@sift/persistence';
import type { PrismaClient } from '@sift/persistence';
import { importJsonl } from '@sift/pages';
import { LocalIndexProvider } from './local-index.provider';
import { PageRepository } from '@sift/pages';
import type { SearchDepth, SearchQuery } from './search-query';

interface ImportLine {
  url: string;
  title: string;
  text: string;
  language: string;
}

const DEPTHS: SearchDepth[] = ['ultra-fast', 'basic', 'advanced'];

/** `count` sentences of words no query here contains, so pages differ in length and wording only. */
function filler(seed: number, count: number): string {
  const words = ['trail', 'valley', 'summer', 'shelter', 'ridge', 'meadow', 'bridge', 'village', 'harbour', 'orchard', 'market', 'lantern'];
  return Array.from({ length: count }, (_value, position) => {
    const at = (offset: number) => words[(seed * 7 + position * 3 + offset) % words.length];
    return `The ${at(0)} near the ${at(1)} was quiet in the ${at(2)}.`;
  }).join(' ');
}

// The corpus statistics a search ranks with are a snapshot shared across searches; an import or a crawl (another
// process: the admin CLI, the crawler worker) changes the corpus under it. Here the whole corpus is this file's, in a
// database of its own, so its page counts are exactly what it stored: the shared test database holds other files'
// pages, which would hide how much an import changes it.
describe('corpus statistics after an import (a database of its own)', () => {
  const name = `sift_corpus_snapshot_${process.pid}_${Date.now()}`;
  const databaseUrl = Object.assign(new URL(process.env.DATABASE_URL as string), { pathname: `/${name}` }).toString();
  let prisma: PrismaClient;
  let pages: PageRepository;
  let directory: string;

  beforeAll(async () => {
    await ensureDatabaseExists(databaseUrl);
    await applyMigrations(databaseUrl);
    prisma = createPrismaClient(databaseUrl, 4);
    pages = new PageRepository(prisma);
    directory = mkdtempSync(join(tmpdir(), 'sift-corpus-snapshot-'));
  }, 60_000);

  afterAll(async () => {
    await prisma?.$disconnect();
    rmSync(directory, { recursive: true, force: true });
    const admin = createPrismaClient(Object.assign(new URL(databaseUrl), { pathname: '/postgres' }).toString(), 1);
    try {
      await admin.$executeRawUnsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    } finally {
      await admin.$disconnect();
    }
  });

  beforeEach(async () => {
    await prisma.document.deleteMany({});
  });

  /** Imports the lines as `admin index import` does (importJsonl into the page store). */
  async function imported(file: string, lines: ImportLine[]): Promise<void> {
    const path = join(directory, file);
    writeFileSync(path, `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
    const result = await importJsonl(path, { pages });
    expect(result).toEqual({ imported: lines.length, skipped: 0 });
  }

  /** The ranking at every depth, with scores to 6 places, as a search answers them. */
  async function rankings(index: LocalIndexProvider, query: Omit<SearchQuery, 'depth'>): Promise<Record<string, Array<[string, string]>>> {
    const ranked: Record<string, Array<[string, string]>> = {};
    for (const depth of DEPTHS) {
      const results = await index.search({ ...query, depth });
      for (const result of results) {
        expect(result.score).toBeGreaterThanOrEqual(0);
        expect(result.score).toBeLessThanOrEqual(1);
      }
      ranked[depth] = results.map((result) => [result.url, result.score.toFixed(6)]);
    }
    return ranked;
  }

  it('ranks right after an import that grew the corpus as it does with statistics taken after it, at every depth', async () => {
    await imported('before.jsonl', [
      { url: 'https://rivers.example/delta', title: 'River deltas', text: `A river slows at its delta. ${filler(1, 6)}`, language: 'en' },
      { url: 'https://rivers.example/source', title: 'River sources', text: `The glacier feeds the river at its source. ${filler(2, 6)}`, language: 'en' },
      { url: 'https://deserts.example/dunes', title: 'Dunes', text: `Dunes move with the wind. ${filler(3, 6)}`, language: 'en' },
      { url: 'https://forests.example/canopy', title: 'Canopy', text: `The canopy shades the forest floor. ${filler(4, 6)}`, language: 'en' },
      { url: 'https://forests.example/roots', title: 'Roots', text: `Roots hold the soil of the forest. ${filler(5, 6)}`, language: 'en' },
    ]);
    // As a gateway runs: statistics reused for a minute, the snapshot taken by searches before the import.
    const serving = new LocalIndexProvider(prisma);
    const query = { query: 'glacier moraine', maxResults: 10 };
    expect((await rankings(serving, query))['basic'].map(([url]) => url)).toEqual(['https://rivers.example/source']);

    // An operator imports (or crawls) a site of 60 pages: most mention a moraine or a glacier in passing, one is about
    // both, and the site's pages link to it.
    const guide = 'https://ice.example/moraine-formation';
    await imported('after.jsonl', [
      {
        url: guide,
        title: 'How a glacier builds a moraine',
        text: `A moraine forms where a glacier drops the rock it carried. The glacier pushes a terminal moraine ahead of it and leaves a lateral moraine along its sides. ${filler(6, 4)}`,
        language: 'en',
      },
      ...Array.from({ length: 59 }, (_value, position) => ({
        url: `https://ice.example/notes-${position}`,
        title: `Field notes ${position}`,
        text: `${position % 2 === 0 ? 'We crossed a moraine' : 'We saw the glacier'} on day ${position}; see [the guide](${guide}). ${filler(position + 10, 3 + (position % 5))}`,
        language: 'en',
      })),
    ]);

    const immediately = await rankings(serving, query);
    const fresh = await rankings(new LocalIndexProvider(prisma), query);
    for (const depth of DEPTHS) {
      expect(immediately[depth][0][0]).toBe(guide);
      expect(immediately[depth].some(([, score]) => Number(score) > 0)).toBe(true);
    }
    expect(immediately).toEqual(fresh);
  });

  it('takes new statistics when a language the corpus had few pages of grew, however little the corpus did', async () => {
    await imported('before.jsonl', [
      ...Array.from({ length: 80 }, (_value, position) => ({
        url: `https://english.example/page-${position}`,
        title: `Page ${position}`,
        text: filler(position, 4 + (position % 4)),
        language: 'en',
      })),
      { url: 'https://deutsch.example/fluss', title: 'Der Fluss', text: 'Der Fluss fließt langsam durch das Tal und die Stadt.', language: 'de' },
      { url: 'https://deutsch.example/wald', title: 'Der Wald', text: 'Im Wald stehen alte Bäume, und der Boden ist weich.', language: 'de' },
    ]);
    const serving = new LocalIndexProvider(prisma);
    const query = { query: 'Gletscher Moräne', language: 'german', maxResults: 10 };
    expect(await serving.search({ ...query, depth: 'basic' })).toEqual([]);

    // Six German pages: under a tenth of the corpus, but three times the German pages it had.
    const guide = 'https://eis.example/moraene';
    await imported('after.jsonl', [
      { url: guide, title: 'Wie ein Gletscher eine Moräne baut', text: 'Eine Moräne entsteht, wo der Gletscher das Gestein ablegt. Der Gletscher schiebt die Moräne vor sich her.', language: 'de' },
      ...Array.from({ length: 5 }, (_value, position) => ({
        url: `https://eis.example/notiz-${position}`,
        title: `Notiz ${position}`,
        text: `${position < 3 ? 'Wir sahen den Gletscher' : 'Wir gingen über die Moräne'} am Tag ${position}, und das Wetter war gut.`,
        language: 'de',
      })),
    ]);

    const immediately = await rankings(serving, query);
    const fresh = await rankings(new LocalIndexProvider(prisma), query);
    for (const depth of DEPTHS) expect(immediately[depth][0][0]).toBe(guide);
    expect(immediately).toEqual(fresh);
  });
});
