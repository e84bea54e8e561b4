import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createPrismaClient, type PrismaClient } from '@sift/persistence';
import { startFixtureServer, type FixtureServer } from '@sift/safe-fetch';
import { PageRepository } from '@sift/pages';
import { CHILD_PROCESS_TEST_TIMEOUT, REPOSITORY_ROOT, runAdmin } from './testing/run-admin';

const admin = runAdmin;
const root = REPOSITORY_ROOT;

/** Starts the real crawler worker process and resolves once it logs that it consumes the queue. */
function startCrawlerWorker(env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['scripts/run-ts.js', 'apps/crawler-worker/src/main.ts'], {
    cwd: root,
    // The "started" line this waits for is at level info.
    env: { ...process.env, SIFT_LOG_LEVEL: 'log', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('crawler worker started')) resolve(child);
    });
    child.once('exit', (code) => reject(new Error(`the crawler worker exited (${code}): ${output}`)));
  });
}

const page = (title: string, body: string) => `<!doctype html><html lang="en"><head><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`;

describe('admin index crawl (child processes: admin command line and crawler worker)', () => {
  let prisma: PrismaClient;
  let site: FixtureServer;
  let worker: ChildProcess | undefined;
  const queueEnv = { QUEUE_PREFIX: `cli-crawl-${randomUUID()}` };
  const marker = `quorvex${randomUUID().replace(/[^a-f]/g, '').slice(0, 6)}`;

  beforeAll(async () => {
    prisma = createPrismaClient(process.env.DATABASE_URL as string, 2);
    const send = (html: string) => (_request: unknown, response: import('node:http').ServerResponse) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(html);
    };
    site = await startFixtureServer({
      '/': send(page('Harbour guide', `<p>The ${marker} harbour shelters fishing boats from winter storms.</p><a href="/tides">Tides</a> <a href="/lighthouse">Lighthouse</a>`)),
      '/tides': send(page('Tides', `<p>Tides at the ${marker} harbour rise four metres twice a day, and the moon sets their rhythm.</p>`)),
      '/lighthouse': send(page('Lighthouse', `<p>The ${marker} lighthouse has guided ships into the bay since the eighteenth century.</p>`)),
    });
    worker = await startCrawlerWorker({ ...queueEnv, CRAWLER_PORT: '0', FETCH_ALLOW_CIDRS: '127.0.0.1/32' });
  }, CHILD_PROCESS_TEST_TIMEOUT);

  afterAll(async () => {
    if (worker && worker.exitCode === null) {
      const exited = new Promise((resolve) => worker?.once('exit', resolve));
      worker.kill('SIGTERM');
      await exited;
    }
    await site.close();
    await prisma.document.deleteMany({ where: { url: { startsWith: site.url } } });
    await prisma.$disconnect();
  });

  it(
    'crawls the site through the worker into the document store and prints the counts',
    async () => {
      const result = await admin(queueEnv, 'index', 'crawl', `${site.url}/`, '--max-depth', '2', '--limit', '10', '--json');

      expect(result).toMatchObject({ exitCode: 0 });
      expect(JSON.parse(result.stdout.trim().split('\n').at(-1) ?? '{}')).toMatchObject({ successful_pages: 3, failed_pages: 0, partial: false });
      const pages = new PageRepository(prisma);
      for (const [path, title] of [['/tides', 'Tides'], ['/lighthouse', 'Lighthouse']]) {
        expect(await pages.findByUrl(`${site.url}${path}`)).toMatchObject({ page: { title }, source: 'crawl' });
      }
    },
    CHILD_PROCESS_TEST_TIMEOUT,
  );

  it(
    'says in one line that no worker answered when none consumes the queue',
    async () => {
      const result = await admin({ QUEUE_PREFIX: `cli-crawl-nobody-${randomUUID()}` }, 'index', 'crawl', `${site.url}/`, '--timeout', '1');

      expect(result.exitCode).toBe(1);
      expect(result.stderr.trim()).toBe('error: No crawler worker answered within 6 s; is it running (npm start)?');
    },
    CHILD_PROCESS_TEST_TIMEOUT,
  );
});
