import { randomUUID } from 'node:crypto';
import { webPageOf } from '@sift/content-extraction';
import { PageRepository } from '@sift/pages';
import { createPrismaClient, type PrismaClient } from '@sift/persistence';
import { conceptEmbedding, startLoopbackModelServer, type LoopbackModelServer } from '@sift/testing';
import { CHILD_PROCESS_TEST_TIMEOUT, runAdmin } from './testing/run-admin';

const embed = conceptEmbedding({ shelving: ['stash', 'shelve', 'aside'], cooking: ['pasta', 'salt'] });

describe('index embed (child process, real Postgres, loopback model server)', () => {
  let prisma: PrismaClient;
  let server: LoopbackModelServer;
  const suffix = randomUUID().slice(0, 8);
  const model = `backfill-${suffix}`;
  const own = { document: { domain: { endsWith: `${suffix}.test` } } };

  beforeAll(async () => {
    prisma = createPrismaClient(process.env.DATABASE_URL as string, 2);
    server = await startLoopbackModelServer({ embed, score: () => 0 });
    // Pages stored before any model was configured.
    const pages = new PageRepository(prisma);
    for (let page = 0; page < 6; page++) {
      await pages.save('operator', webPageOf({ url: `https://old-${page}-${suffix}.test/`, finalUrl: `https://old-${page}-${suffix}.test/`, title: `Old page ${page}`, text: `Stash aside page ${page}; pasta with salt.`, language: 'en' }), 'import');
    }
  });

  afterAll(async () => {
    await prisma.document.deleteMany({ where: { domain: { endsWith: `${suffix}.test` } } });
    await prisma.$disconnect();
    await server.close();
  });

  const env = () => ({ EMBEDDINGS_BASE_URL: server.baseUrl, EMBEDDINGS_MODEL: model });

  it(
    'backfills the vectors of pages stored before the model, with progress, and says which index serves them',
    async () => {
      // Calls slow enough that the command reports its progress (at most every 2 s) after its first batch.
      server.delayMs = 2_100;
      const result = await runAdmin(env(), 'index', 'embed', '--batch-size', '64', '--json');
      server.delayMs = 0;
      expect(result.exitCode).toBe(0);
      const summary = JSON.parse(result.stdout.trim().split('\n').pop() as string) as Record<string, unknown>;
      expect(summary).toMatchObject({ model, dimension: 3, index: 'memory' });
      expect(summary.embedded as number).toBeGreaterThanOrEqual(6);
      expect(result.stderr).toMatch(/\d+ of \d+ chunks embedded/);
      const rows = await prisma.documentChunkEmbedding.findMany({ where: { chunk: own } });
      expect(rows).toHaveLength(6);
      expect(rows.every((row) => row.model === model && row.dimension === 3)).toBe(true);
      expect(server.received.filter((request) => request.path === '/v1/embeddings').every((request) => request.body.model === model)).toBe(true);
    },
    CHILD_PROCESS_TEST_TIMEOUT,
  );

  it(
    'fails with the model server’s reason, and stores nothing it could not embed',
    async () => {
      await prisma.documentChunkEmbedding.deleteMany({ where: { chunk: own } });
      server.fault = 'http-500';
      const result = await runAdmin(env(), 'index', 'embed');
      server.fault = 'none';
      expect(result.exitCode).toBe(1);
      expect(result.stderr).toMatch(/the embeddings server failed after 0 chunks \(http-error/);
      expect(await prisma.documentChunkEmbedding.count({ where: { chunk: own } })).toBe(0);
    },
    CHILD_PROCESS_TEST_TIMEOUT,
  );

  it(
    'refuses to run without a model',
    async () => {
      const result = await runAdmin({ EMBEDDINGS_BASE_URL: '' }, 'index', 'embed');
      expect(result.exitCode).toBe(1);
      expect(result.stderr).toMatch(/EMBEDDINGS_BASE_URL is not set/);
    },
    CHILD_PROCESS_TEST_TIMEOUT,
  );
});
