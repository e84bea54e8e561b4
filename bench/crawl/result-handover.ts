// What handing a whole crawl's result from the worker to the gateway costs: the Git documentation site's pages, in
// markdown as a crawl returns them, made into one job result (about 4 MB of JSON, with the typographic characters
// beyond Latin-1 the pages hold), written to Redis by the worker's handedOverResult and read back by the gateway's
// receivedResult, as a crawl job's answer travels. Beside them, the same JSON written as a string argument, which
// ioredis encodes through a slower path when the string holds characters beyond Latin-1. Medians of ROUNDS rounds.
// Run: node scripts/run-ts.js bench/crawl/result-handover.ts
// Env: REDIS_URL (default redis://127.0.0.1:6379/14), ROUNDS (15)
import { readdirSync, readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import type { Job } from 'bullmq';
import { extractHtml } from '@sift/content-extraction';
import { createRedisConnection, handedOverResult, receivedResult } from '@sift/queue';
import { GIT_DOCS_SITE_ROOT } from '@sift/testing';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379/14';
const ROUNDS = Number(process.env.ROUNDS ?? 15);
const ORIGIN = 'http://127.0.0.1:8080';

function crawlResult(): unknown {
  const pages = readdirSync(GIT_DOCS_SITE_ROOT)
    .filter((file) => file.endsWith('.html'))
    .sort()
    .map((file) => {
      const url = `${ORIGIN}/${file}`;
      const page = extractHtml(readFileSync(`${GIT_DOCS_SITE_ROOT}/${file}`, 'utf8'), { baseUrl: url, format: 'markdown' });
      return { page: { url, finalUrl: url, title: page.title, images: [] }, content: page.markdown };
    });
  return { baseUrl: `${ORIGIN}/index.html`, pages, urls: [], successfulPages: pages.length, failedPages: 0, failures: [], robotsRefused: 0, partial: false };
}

function median(values: number[]): number {
  const sorted = [...values].sort((left, right) => left - right);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

async function timed(step: () => Promise<unknown>): Promise<number> {
  const startedAt = performance.now();
  await step();
  return performance.now() - startedAt;
}

async function main(): Promise<void> {
  const connection = createRedisConnection(REDIS_URL);
  const prefix = `bench-handover-${randomUUID()}`;
  const result = crawlResult();
  const json = JSON.stringify(result);
  const beyondLatin1 = [...json].filter((character) => character.codePointAt(0)! > 0xff).length;
  console.log(`one crawl's result: ${(json.length / 1e6).toFixed(2)} M characters of JSON, ${beyondLatin1} of them beyond Latin-1; ${ROUNDS} rounds, medians`);
  const figures = { handedOver: [] as number[], asString: [] as number[], received: [] as number[] };
  try {
    for (let round = 0; round < ROUNDS; round += 1) {
      const job = { queueName: 'crawl', id: `round-${round}`, opts: { removeOnComplete: { age: 60 } } } as unknown as Job;
      let reference: unknown;
      figures.handedOver.push(await timed(async () => (reference = await handedOverResult(connection, prefix, job, result))));
      figures.received.push(await timed(() => receivedResult(connection, reference)));
      figures.asString.push(await timed(() => connection.set(`${prefix}:as-string`, JSON.stringify(result), 'EX', 60)));
    }
  } finally {
    const keys = await connection.keys(`${prefix}:*`);
    if (keys.length > 0) await connection.del(...keys);
    await connection.quit();
  }
  console.log(`worker, handedOverResult (JSON, its UTF-8 bytes to Redis): ${median(figures.handedOver).toFixed(1)} ms`);
  console.log(`worker, the JSON to Redis as a string argument instead:    ${median(figures.asString).toFixed(1)} ms`);
  console.log(`gateway, receivedResult (Redis GET, JSON.parse):          ${median(figures.received).toFixed(1)} ms`);
}

void main();
