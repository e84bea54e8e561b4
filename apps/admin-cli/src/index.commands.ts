import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { coreEnv, fetchEnv, loadConfig, modelsEnv } from '@sift/config';
import { configuredModels } from '@sift/models';
import { egressPolicyFromConfig } from '@sift/safe-fetch';
import { ChunkEmbedder } from '@sift/search-index';
import { createRedisConnection, JobFailedError, JobQueue, JobTimeoutError } from '@sift/queue';
import { CrawlJob, type CrawlPayload, OPERATOR_ACCOUNT_ID } from '@sift/queue-contracts';
import { importJsonl, type ImportProgress } from '@sift/pages';
import { AdminCommandError } from './admin-command-error';
import { withAdminContext } from './admin-context';
import { printResult } from './command-output';

interface CrawlOptions {
  maxDepth: number;
  maxBreadth: number;
  limit: number;
  timeout: number;
  json?: boolean;
}

/** Documents written at once; each write holds one database connection. */
const IMPORT_CONCURRENCY = 8;
/** A progress line at most this often, so short imports print only their result. */
const PROGRESS_INTERVAL_MS = 2_000;
/** The crawl job's own deadline is capped at 150 s (spec POST /crawl); the worker replies a little after it. */
const MAX_CRAWL_SECONDS = 150;
const CRAWL_REPLY_MARGIN_MS = 5_000;

function positiveInteger(name: string, maximum: number): (value: string) => number {
  return (value) => {
    const parsed = Number(value);
    if (!Number.isInteger(parsed) || parsed < 1 || parsed > maximum) {
      throw new AdminCommandError(`${name} must be a whole number from 1 to ${maximum}, not "${value}".`);
    }
    return parsed;
  };
}

export function registerIndexCommands(program: Command): void {
  const index = program.command('index').description('Fill the local search index: import documents, crawl sites, re-chunk, re-segment and embed old documents');

  index
    .command('import')
    .description('Import a JSONL file of documents ({url, title, text | html, published_date?, language?} per line)')
    .argument('<file>', 'path of the .jsonl file')
    .option('--json', 'print the result as JSON on the last line')
    .action((file: string, options: { json?: boolean }) => importDocuments(file, options));

  index
    .command('rechunk')
    .description('Cut the documents stored before search chunks existed into chunks (safe to run again)')
    .option('--json', 'print the result as JSON on the last line')
    .action((options: { json?: boolean }) => rechunkDocuments(options));

  index
    .command('embed')
    .description('Give every stored chunk a vector of EMBEDDINGS_MODEL (pages stored before the model was configured, or under another model); safe to run again')
    .option('--batch-size <n>', 'chunks per call to the model', positiveInteger('--batch-size', 2048), 32)
    .option('--json', 'print the result as JSON on the last line')
    .action((options: { batchSize: number; json?: boolean }) => embedChunks(options));

  index
    .command('resegment')
    .description('Index again the pages stored before word segmentation (Chinese, Japanese, Thai), before headings were indexed or before dotted names (user.email) were split into words, and record the links and title names of pages stored before the link graph and the names (safe to run again)')
    .option('--json', 'print the result as JSON on the last line')
    .action((options: { json?: boolean }) => resegmentDocuments(options));

  index
    .command('crawl')
    .description('Crawl a site into the index through the crawler worker (start it with `npm start`)')
    .argument('<url>', 'where the crawl starts')
    .option('--max-depth <n>', 'link hops from the start page (1-5)', positiveInteger('--max-depth', 5), 1)
    .option('--max-breadth <n>', 'links followed per page (1-500)', positiveInteger('--max-breadth', 500), 20)
    .option('--limit <n>', 'pages to crawl at most', positiveInteger('--limit', 10_000), 50)
    .option('--timeout <seconds>', `how long the crawl may run (1-${MAX_CRAWL_SECONDS})`, positiveInteger('--timeout', MAX_CRAWL_SECONDS), MAX_CRAWL_SECONDS)
    .option('--json', 'print the result as JSON on the last line')
    .action((url: string, options: CrawlOptions) => crawlSite(url, options));
}

/**
 * A progress line on stderr (stdout carries only the result, for scripts) at most every PROGRESS_INTERVAL_MS, so
 * short runs print only their result.
 */
function progressReporter(): (line: () => string) => void {
  let lastReportAt = Date.now();
  return (line) => {
    const now = Date.now();
    if (now - lastReportAt < PROGRESS_INTERVAL_MS) return;
    lastReportAt = now;
    process.stderr.write(`${line()}\n`);
  };
}

async function importDocuments(file: string, options: { json?: boolean }): Promise<void> {
  if (!existsSync(file)) throw new AdminCommandError(`No such file: ${file}`);
  await withAdminContext(async (context) => {
    const startedAt = Date.now();
    const report = progressReporter();
    const result = await importJsonl(file, {
      pages: context.pages,
      concurrency: IMPORT_CONCURRENCY,
      progressEvery: 500,
      onProgress: (progress: ImportProgress) =>
        report(() => `${progress.lines} lines read: imported ${progress.imported}, skipped ${progress.skipped}`),
    });
    const seconds = (Date.now() - startedAt) / 1000;
    printResult(options.json, [`imported ${result.imported}, skipped ${result.skipped} (${seconds.toFixed(1)} s)`], {
      imported: result.imported,
      skipped: result.skipped,
      seconds,
    });
  }, IMPORT_CONCURRENCY);
}

async function rechunkDocuments(options: { json?: boolean }): Promise<void> {
  await withAdminContext(async (context) => {
    const startedAt = Date.now();
    const report = progressReporter();
    const chunked = await context.pages.chunkUnchunked({ onBatch: (total) => report(() => `${total} documents chunked so far`) });
    const seconds = (Date.now() - startedAt) / 1000;
    printResult(options.json, [`chunked ${chunked} documents (${seconds.toFixed(1)} s)`], { chunked, seconds });
  });
}

async function resegmentDocuments(options: { json?: boolean }): Promise<void> {
  await withAdminContext(async (context) => {
    const startedAt = Date.now();
    const report = progressReporter();
    const indexed = await context.pages.resegment({ onBatch: (read, done) => report(() => `${read} documents read, ${done} indexed again`) });
    const seconds = (Date.now() - startedAt) / 1000;
    printResult(options.json, [`indexed ${indexed} documents again (${seconds.toFixed(1)} s)`], { indexed, seconds });
  });
}

async function embedChunks(options: { batchSize: number; json?: boolean }): Promise<void> {
  const config = loadConfig(coreEnv.merge(fetchEnv).merge(modelsEnv));
  const { embeddings } = configuredModels(config, { policy: egressPolicyFromConfig(config) });
  if (!embeddings) throw new AdminCommandError('EMBEDDINGS_BASE_URL is not set: there is no model to embed with (docs/models.md).');
  await withAdminContext(async (context) => {
    const startedAt = Date.now();
    const report = progressReporter();
    const embedder = new ChunkEmbedder(context.vectors, embeddings, { batchSize: options.batchSize });
    const pass = await embedder.embedPending(({ embedded, pending }) => report(() => `${embedded} of ${pending} chunks embedded`));
    if (pass.failure) {
      throw new AdminCommandError(`the embeddings server failed after ${pass.embedded} chunks (${pass.failure.reason}: ${pass.failure.message}); run the command again to go on`);
    }
    const hnsw = pass.dimension !== null && (await context.vectors.hasPgvector());
    if (hnsw && pass.dimension !== null) await context.vectors.ensureHnswIndex(pass.dimension);
    const seconds = (Date.now() - startedAt) / 1000;
    printResult(
      options.json,
      [`embedded ${pass.embedded} chunks with ${embeddings.model} (${pass.dimension} dimensions, ${hnsw ? 'pgvector HNSW index' : 'scanned in memory'}; ${seconds.toFixed(1)} s)`],
      { model: embeddings.model, dimension: pass.dimension, embedded: pass.embedded, pending: pass.pending, index: hnsw ? 'hnsw' : 'memory', seconds },
    );
  });
}

async function crawlSite(url: string, options: CrawlOptions): Promise<void> {
  const config = loadConfig(coreEnv);
  const startUrl = /^[a-z][a-z0-9+.-]*:/i.test(url) ? url : `https://${url}`;
  const payload: CrawlPayload = {
    requestId: `admin-${randomUUID()}`,
    // Operator crawls belong to no customer account and are not billed; their pages are stored as the operator's.
    accountId: OPERATOR_ACCOUNT_ID,
    url: startUrl,
    chunksPerSource: 3,
    maxDepth: options.maxDepth,
    maxBreadth: options.maxBreadth,
    limit: options.limit,
    allowExternal: false,
    includeImages: false,
    extractDepth: 'basic',
    format: 'markdown',
    includeFavicon: false,
    timeoutMs: options.timeout * 1000,
  };
  const connection = createRedisConnection(config.REDIS_URL);
  const queue = new JobQueue({ connection, prefix: config.QUEUE_PREFIX });
  try {
    const result = await queue.enqueueAndWait(CrawlJob, payload, { timeoutMs: payload.timeoutMs + CRAWL_REPLY_MARGIN_MS });
    const total = await withAdminContext((context) => context.pages.count());
    printResult(
      options.json,
      [
        `crawled ${result.successfulPages} pages into the index, ${result.failedPages} failed${result.partial ? ' (stopped early by the limit or deadline)' : ''}`,
        `the index now holds ${total} documents`,
      ],
      { successful_pages: result.successfulPages, failed_pages: result.failedPages, partial: result.partial, documents: total },
    );
  } catch (error) {
    if (error instanceof JobTimeoutError) {
      throw new AdminCommandError(`No crawler worker answered within ${options.timeout + CRAWL_REPLY_MARGIN_MS / 1000} s; is it running (npm start)?`);
    }
    if (error instanceof JobFailedError) throw new AdminCommandError(`The crawl failed: ${error.message}`);
    throw error;
  } finally {
    await queue.close();
    await connection.quit();
  }
}
