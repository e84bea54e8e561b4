import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPrismaClient } from '@sift/persistence';
import type { PrismaClient } from '@sift/persistence';
import { PageRepository } from './page.repository';
import { importJsonl } from './import-jsonl';
import type { ImportProgress } from './import-jsonl';

describe('importJsonl', () => {
  let prisma: PrismaClient;
  let directory: string;
  const host = `import-${randomUUID().slice(0, 8)}.test`;

  beforeAll(() => {
    prisma = createPrismaClient(process.env.DATABASE_URL as string, 2);
    directory = mkdtempSync(join(tmpdir(), 'sift-import-'));
  });

  afterAll(async () => {
    rmSync(directory, { recursive: true, force: true });
    await prisma.document.deleteMany({ where: { domain: host } });
    await prisma.$disconnect();
  });

  it('loads text and html lines, skips broken ones and reports progress', async () => {
    const html = `<!doctype html><html lang="fr-CA"><head><title>Les volcans</title>
      <meta property="article:published_time" content="2024-06-01T12:00:00Z"></head>
      <body><article><h1>Les volcans</h1><p>Les volcans sont des montagnes qui crachent de la lave et des cendres.</p>
      <p>Ils se trouvent le long des plaques tectoniques et la plupart sont sous la mer.</p>
      <img src="/lave.jpg" alt="Coulée de lave"></article></body></html>`;
    const lines = [
      JSON.stringify({ url: `https://${host}/text`, title: 'Plain', text: 'A plain text document about rivers.', published_date: '2023-01-02', language: 'en' }),
      JSON.stringify({ url: `https://${host}/html`, html }),
      '{not json',
      JSON.stringify({ title: 'no url', text: 'x' }),
      JSON.stringify({ url: `https://${host}/empty`, text: '   ' }),
      JSON.stringify({ url: 'mailto:someone@example.com', text: 'not a web page' }),
      '',
    ];
    const file = join(directory, 'documents.jsonl');
    writeFileSync(file, lines.join('\n'));
    const progress: ImportProgress[] = [];

    const result = await importJsonl(file, { pages: new PageRepository(prisma), onProgress: (update) => progress.push(update), progressEvery: 2 });

    expect(result).toEqual({ imported: 2, skipped: 4 });
    expect(progress.at(-1)).toEqual({ lines: 6, imported: 2, skipped: 4 });
    expect(progress.length).toBeGreaterThan(1);
    const text = await prisma.document.findFirstOrThrow({ where: { url: `https://${host}/text` } });
    expect(text).toMatchObject({ title: 'Plain', language: 'en', source: 'import' });
    expect(text.publishedDate?.toISOString()).toBe('2023-01-02T00:00:00.000Z');
    const page = await prisma.document.findFirstOrThrow({ where: { url: `https://${host}/html` } });
    expect(page.title).toBe('Les volcans');
    expect(page.language).toBe('fr');
    expect(page.text).toContain('plaques tectoniques');
    expect(page.countryHints).toContain('ca');
    expect(page.images).toEqual([{ url: `https://${host}/lave.jpg`, alt: 'Coulée de lave' }]);
  });
});
