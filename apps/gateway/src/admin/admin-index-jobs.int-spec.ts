import { randomBytes, randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { webPageOf } from '@sift/content-extraction';
import { normalizeUrl, PageRepository } from '@sift/pages';
import { createPrismaClient } from '@sift/persistence';
import { startFixtureServer, type FixtureServer } from '@sift/safe-fetch';
import { callGateway, createTestAccount, createTestKey, ownResults, readUntil } from '@sift/testing';
import { startTestGateway, TestGateway } from '../testing/gateway-harness';
import { startWorkerProcess, type WorkerProcess } from '../testing/worker-process';

interface Job {
  id: string;
  kind: string;
  state: 'queued' | 'running' | 'succeeded' | 'failed';
  parameters: Record<string, unknown>;
  progress: Record<string, number> | null;
  result: Record<string, unknown> | null;
  error: string | null;
  actor: string;
}

const page = (title: string, body: string) => `<!doctype html><html lang="en"><head><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`;

// Filling the index through the admin API: an uploaded JSONL file and a crawl of a loopback site, each a job the
// operator polls, run by the gateway (the crawl by the real crawler worker), then searchable with a tenant's key.
describe('admin API: index jobs (real gateway, crawler worker)', () => {
  let gateway: TestGateway;
  let worker: WorkerProcess;
  let site: FixtureServer;
  let tenantKey: string;
  const adminToken = randomBytes(24).toString('base64url');
  const queuePrefix = `test-${randomBytes(4).toString('hex')}`;
  const marker = `vordrix${randomUUID().replace(/[^a-f]/g, '').slice(0, 6)}`;
  const host = `admin-import-${randomUUID().slice(0, 8)}.test`;

  const admin = <Body = Job>(method: string, path: string, body?: unknown) => callGateway<Body>(gateway.baseUrl, method, path, { apiKey: adminToken, body });

  /** Polls the job until it ends; every reading must be a state the job can be in, in order. */
  async function finished(job: Job): Promise<{ job: Job; seen: string[] }> {
    const seen: string[] = [job.state];
    const last = await readUntil(
      async () => {
        const answer = await admin('GET', `/admin/jobs/${job.id}`);
        expect(answer.status).toBe(200);
        if (seen.at(-1) !== answer.body.state) seen.push(answer.body.state);
        return answer.body;
      },
      (reading) => reading.state === 'succeeded' || reading.state === 'failed',
      120_000,
      100,
    );
    return { job: last, seen };
  }

  const search = (query: string) =>
    callGateway<{ results: Array<{ url: string; title: string }> }>(gateway.baseUrl, 'POST', '/search', { apiKey: tenantKey, body: { query, max_results: 10 } });

  beforeAll(async () => {
    const send = (html: string) => (_request: unknown, response: ServerResponse) => {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(html);
    };
    site = await startFixtureServer({
      '/': send(page('Lighthouse guide', `<p>The ${marker} lighthouse guides ships past the reef.</p><a href="/keepers">Keepers</a> <a href="/lamp">Lamp</a>`)),
      '/keepers': send(page('Keepers', `<p>Three keepers tended the ${marker} lighthouse in turns until the lamp was automated.</p>`)),
      '/lamp': send(page('Lamp', `<p>The ${marker} lighthouse lamp turns once every ten seconds and is seen forty kilometres out.</p>`)),
    });
    worker = await startWorkerProcess('crawler-worker', { QUEUE_PREFIX: queuePrefix });
    gateway = await startTestGateway({ ADMIN_TOKEN: adminToken, QUEUE_PREFIX: queuePrefix });
    const account = await createTestAccount(gateway.prisma, { plan: 'growth', name: 'admin-index' });
    tenantKey = (await createTestKey(gateway.prisma, account.id)).apiKey;
  }, 120_000);

  afterAll(async () => {
    await gateway?.prisma.document.deleteMany({ where: { OR: [{ domain: host }, { url: { startsWith: site.url } }] } });
    await gateway?.close();
    await worker?.stop();
    await site?.close();
  });

  it('imports an uploaded JSONL file (multipart) as a job with counts, and the documents are searchable at once', async () => {
    const lines = [
      JSON.stringify({ url: `https://${host}/glacier`, title: `The ${marker} glacier`, text: `The ${marker} glacier retreats every summer as the valley warms.`, language: 'en' }),
      JSON.stringify({
        url: `https://${host}/rivers`,
        html: `<!doctype html><html lang="en"><head><title>Rivers</title></head><body><article><h1>Rivers</h1><p>Meltwater of the ${marker} glacier feeds three rivers that run south to the sea.</p></article></body></html>`,
      }),
      '{not json',
      JSON.stringify({ title: 'no url', text: 'x' }),
    ];
    const form = new FormData();
    form.append('file', new Blob([`${lines.join('\n')}\n`], { type: 'application/x-ndjson' }), 'glaciers.jsonl');
    const response = await fetch(`${gateway.baseUrl}/admin/index/import`, { method: 'POST', headers: { Authorization: `Bearer ${adminToken}` }, body: form });
    expect(response.status).toBe(202);
    const started = (await response.json()) as Job;
    expect(started).toMatchObject({ kind: 'index.import', state: 'queued', parameters: { file: 'glaciers.jsonl' }, actor: expect.stringMatching(/^admin-token:/) });

    const { job, seen } = await finished(started);
    expect(job).toMatchObject({ state: 'succeeded', progress: { lines: 4, imported: 2, skipped: 2 }, result: { lines: 4, imported: 2, skipped: 2 }, error: null });
    expect(['queued', 'running', 'succeeded']).toEqual(expect.arrayContaining(seen));

    const found = await search(`${marker} glacier`);
    expect(found.status).toBe(200);
    expect(ownResults(found.body.results, host).map((result) => result.url).sort()).toEqual([`https://${host}/glacier`, `https://${host}/rivers`]);
  });

  it('takes the file as a raw application/x-ndjson body too, and refuses a request without one', async () => {
    const line = JSON.stringify({ url: `https://${host}/moraine`, title: `The ${marker} moraine`, text: `Boulders of the ${marker} moraine mark where the ice once stood.`, language: 'en' });
    const started = await callGateway<Job>(gateway.baseUrl, 'POST', '/admin/index/import', { apiKey: adminToken, body: `${line}\n`, headers: { 'Content-Type': 'application/x-ndjson' } });
    expect(started.status).toBe(202);
    expect((await finished(started.body)).job).toMatchObject({ state: 'succeeded', result: { imported: 1, skipped: 0 } });
    expect(ownResults((await search(`${marker} moraine`)).body.results, host).map((result) => result.url)).toContain(`https://${host}/moraine`);

    const empty = await callGateway(gateway.baseUrl, 'POST', '/admin/index/import', { apiKey: adminToken });
    expect(empty).toMatchObject({ status: 400, body: { detail: { error: expect.stringContaining('multipart field "file"') } } });
  });

  it('crawls a site through the crawler worker as a job, and its pages are searchable at once', async () => {
    const started = await admin('POST', '/admin/index/crawl', { url: `${site.url}/`, max_depth: 2, limit: 10, timeout: 60 });
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({ kind: 'index.crawl', state: 'queued', parameters: { url: `${site.url}/`, max_depth: 2, limit: 10 } });

    const { job } = await finished(started.body);
    expect(job).toMatchObject({ state: 'succeeded', progress: { successful_pages: 3, failed_pages: 0 }, result: { successful_pages: 3, failed_pages: 0, partial: false } });

    const found = await search(`${marker} lighthouse keepers`);
    expect(found.status).toBe(200);
    expect(ownResults(found.body.results, new URL(site.url).hostname).map((result) => result.url)).toContain(`${site.url}/keepers`);
  });

  it('rechunks and resegments as jobs; an embed job without a model fails saying what to set', async () => {
    for (const path of ['/admin/index/rechunk', '/admin/index/resegment']) {
      const started = await admin('POST', path);
      expect(started.status).toBe(202);
      const { job } = await finished(started.body);
      expect({ path, state: job.state, error: job.error }).toEqual({ path, state: 'succeeded', error: null });
      expect(job.result).toEqual(expect.objectContaining({ seconds: expect.any(Number) }));
    }
    const embed = await admin('POST', '/admin/index/embed', {});
    expect(embed.status).toBe(202);
    expect((await finished(embed.body)).job).toMatchObject({ state: 'failed', error: expect.stringContaining('EMBEDDINGS_BASE_URL is not set') });
    expect((await admin('GET', `/admin/jobs/${randomUUID()}`)).status).toBe(404);
    expect((await admin('POST', '/admin/index/crawl', { url: `${site.url}/`, max_depth: 9 })).status).toBe(400);
  });

  it('shows the counts of an import while it runs: a reading between the start and the end', async () => {
    // The import reports every 500 lines. Its line 600 rewrites a stored document whose row another connection holds
    // locked, so the job stops there, running, with its 500-line report written, until the test lets it go on.
    const lineCount = 1_000;
    const heldUrl = `https://${host}/ledger/600`;
    await new PageRepository(gateway.prisma).save('operator', webPageOf({ finalUrl: heldUrl, title: 'Ledger 600', text: 'The harbour ledger, page 600, as stored before.' }), 'import');
    const lines = Array.from({ length: lineCount }, (_, index) =>
      JSON.stringify({ url: `https://${host}/ledger/${index + 1}`, title: `Ledger ${index + 1}`, text: `The harbour ledger, page ${index + 1}, lists the ships that called that week.` }),
    );
    const holder = createPrismaClient(process.env.DATABASE_URL as string, 1);
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    let holding: Promise<unknown> = Promise.resolve();
    try {
      await new Promise<void>((locked, failed) => {
        holding = holder
          .$transaction(
            async (transaction) => {
              const rows = await transaction.$queryRaw<unknown[]>`SELECT id FROM documents WHERE url = ${normalizeUrl(heldUrl)} AND owner_account_id IS NULL FOR UPDATE`;
              if (rows.length !== 1) throw new Error(`expected to lock the one stored copy of ${heldUrl}, found ${rows.length}`);
              locked();
              await released;
            },
            { timeout: 120_000 },
          )
          .catch(failed);
      });

      const started = await callGateway<Job>(gateway.baseUrl, 'POST', '/admin/index/import', { apiKey: adminToken, body: `${lines.join('\n')}\n`, headers: { 'Content-Type': 'application/x-ndjson' } });
      expect(started.status).toBe(202);
      const running = await readUntil(
        async () => (await admin('GET', `/admin/jobs/${started.body.id}`)).body,
        (job) => job.progress !== null || job.state === 'succeeded' || job.state === 'failed',
        30_000,
        100,
      );
      expect(running).toMatchObject({ state: 'running', progress: { lines: 500, skipped: 0 }, result: null });
      expect(running.progress?.imported).toBeGreaterThan(0);
      expect(running.progress?.imported).toBeLessThanOrEqual(500);

      release();
      await holding;
      expect((await finished(running)).job).toMatchObject({ state: 'succeeded', progress: { lines: lineCount, imported: lineCount, skipped: 0 }, result: { lines: lineCount, imported: lineCount } });
    } finally {
      release();
      await holding.catch(() => undefined);
      await holder.$disconnect();
    }
  });

  it('lists the jobs and puts each on the audit trail with its job id and outcome', async () => {
    const listed = (await admin<{ jobs: Job[] }>('GET', '/admin/jobs?limit=50')).body.jobs;
    // Other test files' jobs may be listed too: this file's are those its token started.
    const actor = listed.find((job) => job.parameters.file === 'glaciers.jsonl')?.actor;
    const jobs = listed.filter((job) => job.actor === actor);
    expect(jobs).toHaveLength(7);
    const kinds = jobs.map((job) => job.kind);
    expect(kinds).toEqual(expect.arrayContaining(['index.import', 'index.crawl', 'index.rechunk', 'index.resegment', 'index.embed']));
    const { events } = (await admin<{ events: Array<{ action: string; outcome: string; job_id: string | null; channel: string; parameters: Record<string, unknown> }> }>('GET', '/admin/audit?action=index&limit=100')).body;
    const mine = events.filter((event) => jobs.some((job) => job.id === event.job_id));
    expect(mine.map((event) => `${event.action} ${event.outcome}`).sort()).toEqual(
      [
        'index.crawl succeeded',
        'index.embed failed',
        'index.import succeeded',
        'index.import succeeded',
        'index.import succeeded',
        'index.rechunk succeeded',
        'index.resegment succeeded',
      ].sort(),
    );
    // The upload is named as the operator sent it, never by the gateway's temporary path.
    expect(mine.find((event) => event.parameters.file === 'glaciers.jsonl')).toBeDefined();
    expect(JSON.stringify(mine)).not.toContain('sift-admin-import-');
  });
});
