import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { callGateway } from '@sift/testing';
import { startSiftStack, type SiftStack } from './sift-stack';

jest.setTimeout(240_000);

const repositoryRoot = resolve(__dirname, '..', '..', '..');

interface Health {
  status: string;
  queues: Record<string, { consumers: number; responsive: number }> | null;
}

/**
 * What a user gets starting a second Sift beside the first: only PORT, DATABASE_URL and REDIS_URL (another database
 * number) set apart. Worker ports and the queue prefix are left at their defaults, so both stacks use the same queue
 * names on one Redis server.
 */
const AS_A_USER = { EXTRACTOR_PORT: undefined, CRAWLER_PORT: undefined, RESEARCH_PORT: undefined, QUEUE_PREFIX: undefined };

// Two `npm start` stacks on one machine (issue #39's first run): both start, neither counts the other's workers, and
// a document imported into one is searchable there at once.
describe('two Sift stacks on one machine', () => {
  let first: SiftStack;
  let second: SiftStack;
  let folder: string;
  let firstKey: string;
  let secondKey: string;

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'sift-two-stacks-'));
    first = await startSiftStack({ ...AS_A_USER, DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/sift_e2e_first', REDIS_URL: 'redis://127.0.0.1:6379/7' });
    second = await startSiftStack({ ...AS_A_USER, DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/sift_e2e_second', REDIS_URL: 'redis://127.0.0.1:6379/8' });
    // Before any request: the command line runs synchronously, and a kept-alive connection the server closes while
    // this process is blocked would be reused by the next request ("other side closed").
    firstKey = first.createKey('growth');
    secondKey = second.createKey('growth');
  });

  afterAll(async () => {
    await Promise.all([first?.stop(), second?.stop()]);
    rmSync(folder, { recursive: true, force: true });
  });

  it('runs both, each /health counting only its own workers, with no port clash', async () => {
    for (const stack of [first, second]) {
      const { status, body } = await callGateway<Health>(stack.baseUrl, 'GET', '/health');
      expect(status).toBe(200);
      expect(body.status).toBe('ok');
      for (const [queue, counts] of Object.entries(body.queues ?? {})) expect({ queue, ...counts }).toEqual({ queue, consumers: 1, responsive: 1 });
      expect(stack.output()).not.toMatch(/EADDRINUSE|already in use|restarting/);
    }
  });

  it('finds a document with a search right after its import, in the stack it was imported into only', async () => {
    const word = `zephyrine${Date.now()}`;
    const file = join(folder, 'pages.jsonl');
    writeFileSync(file, `${JSON.stringify({ url: `https://handbook.example/${word}`, title: `The ${word} handbook`, text: `The ${word} handbook explains how the first search of a fresh install finds an imported page. `.repeat(4) })}\n`);
    // A search before anything is imported: it must not leave an empty corpus cached for the next one.
    expect((await callGateway<{ results: unknown[] }>(first.baseUrl, 'POST', '/search', { apiKey: firstKey, body: { query: word } })).body.results).toEqual([]);
    await promisify(execFile)(process.execPath, [resolve(repositoryRoot, 'scripts', 'run-ts.js'), 'apps/admin-cli/src/main.ts', 'index', 'import', file], { cwd: repositoryRoot, env: first.env });

    const found = await callGateway<{ results: Array<{ url: string }> }>(first.baseUrl, 'POST', '/search', { apiKey: firstKey, body: { query: word } });
    expect(found.body.results.map((result) => result.url)).toEqual([`https://handbook.example/${word}`]);
    const elsewhere = await callGateway<{ results: unknown[] }>(second.baseUrl, 'POST', '/search', { apiKey: secondKey, body: { query: word } });
    expect(elsewhere.body.results).toEqual([]);
  });
});
