import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPrismaClient, type PrismaClient } from '@sift/persistence';
import { webPageOf } from '@sift/content-extraction';
import { LocalIndexProvider } from '@sift/search-index';
import { PageRepository } from '@sift/pages';
import { ownResults } from '@sift/testing';
import { CHILD_PROCESS_TEST_TIMEOUT, runAdmin } from './testing/run-admin';

const admin = (...args: string[]) => runAdmin({}, ...args);

describe('admin index import (child process, real Postgres)', () => {
  let prisma: PrismaClient;
  let directory: string;
  // A host and a made-up word no other test's documents contain, so the search below sees only this import.
  const host = `cli-import-${randomUUID().slice(0, 8)}.test`;
  const marker = `zorblat${randomUUID().replace(/[^a-f]/g, '').slice(0, 6)}`;

  beforeAll(() => {
    prisma = createPrismaClient(process.env.DATABASE_URL as string, 2);
    directory = mkdtempSync(join(tmpdir(), 'sift-cli-import-'));
  });

  afterAll(async () => {
    rmSync(directory, { recursive: true, force: true });
    await prisma.document.deleteMany({ where: { domain: host } });
    await prisma.$disconnect();
  });

  it(
    'imports a JSONL file, prints the counts, and the documents are searchable in the local index',
    async () => {
      const lines = [
        JSON.stringify({ url: `https://${host}/glaciers`, title: `Glaciers of the ${marker} valley`, text: `The ${marker} glacier retreats every summer as the valley warms.`, language: 'en' }),
        JSON.stringify({
          url: `https://${host}/rivers`,
          html: `<!doctype html><html lang="en"><head><title>Rivers</title></head><body><article><h1>Rivers</h1><p>Meltwater from the ${marker} glacier feeds three rivers that run south to the sea.</p><p>Farmers downstream depend on that water in dry years.</p></article></body></html>`,
        }),
        JSON.stringify({ url: `https://${host}/unrelated`, title: 'Deserts', text: 'Sand dunes move with the wind across the plain.' }),
        '{not json',
        JSON.stringify({ title: 'no url', text: 'x' }),
      ];
      const file = join(directory, 'documents.jsonl');
      writeFileSync(file, `${lines.join('\n')}\n`);

      const result = await admin('index', 'import', file);

      expect(result).toMatchObject({ exitCode: 0 });
      expect(result.stdout.trim().split('\n').at(-1)).toMatch(/^imported 3, skipped 2 \(/);
      const pages = new PageRepository(prisma);
      expect(await pages.findByUrl(`https://${host}/glaciers`)).toMatchObject({ page: { title: `Glaciers of the ${marker} valley` }, source: 'import' });
      expect(await pages.findByUrl(`https://${host}/rivers`)).toMatchObject({ page: { title: 'Rivers' }, source: 'import' });

      const hits = await new LocalIndexProvider(prisma).search({ query: `${marker} glacier`, maxResults: 10 });
      expect(ownResults(hits, host).map((hit) => hit.url).sort()).toEqual([`https://${host}/glaciers`, `https://${host}/rivers`]);
    },
    CHILD_PROCESS_TEST_TIMEOUT,
  );

  it(
    'rechunk cuts documents stored without chunks, and a second run finds nothing left',
    async () => {
      const url = `https://${host}/unchunked`;
      await new PageRepository(prisma).save('operator', webPageOf({ finalUrl: url, title: 'Old page', text: `An old ${marker} page stored before chunks existed.`, language: 'en' }), 'import');
      const chunkCount = async () =>
        (await prisma.$queryRaw<{ n: number }[]>`
          SELECT count(*)::int AS n FROM document_chunks c JOIN documents d ON d.id = c.document_id WHERE d.url = ${url}`)[0].n;
      await prisma.$executeRaw`DELETE FROM document_chunks WHERE document_id = (SELECT id FROM documents WHERE url = ${url})`;
      expect(await chunkCount()).toBe(0);

      const first = await admin('index', 'rechunk', '--json');
      expect(first).toMatchObject({ exitCode: 0 });
      expect((JSON.parse(first.stdout.trim().split('\n').at(-1) as string) as { chunked: number }).chunked).toBeGreaterThanOrEqual(1);
      expect(await chunkCount()).toBe(1);

      // Other tests' documents may be stored meanwhile, each with its chunks: nothing of this one is left to cut.
      const second = await admin('index', 'rechunk');
      expect(second).toMatchObject({ exitCode: 0 });
      expect(await chunkCount()).toBe(1);
    },
    CHILD_PROCESS_TEST_TIMEOUT,
  );

  it(
    'reads a relative file name from the folder `npm run admin` was typed in (INIT_CWD), not the repository root',
    async () => {
      const url = `https://${host}/from-elsewhere`;
      writeFileSync(join(directory, 'mine.jsonl'), `${JSON.stringify({ url, title: `Typed in another ${marker} folder`, text: `A ${marker} page imported by a relative name.` })}\n`);

      const result = await runAdmin({ INIT_CWD: directory }, 'index', 'import', 'mine.jsonl');

      expect(result).toMatchObject({ exitCode: 0 });
      expect(await new PageRepository(prisma).findByUrl(url)).toMatchObject({ page: { title: `Typed in another ${marker} folder` } });
    },
    CHILD_PROCESS_TEST_TIMEOUT,
  );

  it(
    'says which file is missing and exits 1',
    async () => {
      const result = await admin('index', 'import', join(directory, 'missing.jsonl'));
      expect(result.exitCode).toBe(1);
      expect(result.stderr.trim()).toBe(`error: No such file: ${join(directory, 'missing.jsonl')}`);
    },
    CHILD_PROCESS_TEST_TIMEOUT,
  );
});
