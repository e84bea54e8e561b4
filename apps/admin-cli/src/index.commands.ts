import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { AdminError, CRAWL_DEFAULTS, CRAWL_LIMITS, type IndexReport } from '@sift/admin';
import { coreEnv, fetchEnv, loadConfig, modelsEnv } from '@sift/config';
import { configuredModels } from '@sift/models';
import { egressPolicyFromConfig } from '@sift/safe-fetch';
import { closeRedisConnection, createRedisConnection, JobQueue } from '@sift/queue';
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

function positiveInteger(name: string, maximum: number): (value: string) => number {
  return (value) => {
    const parsed = Number(value);
    if (!Number.isInteger(parsed) || parsed < 1 || parsed > maximum) {
      throw new AdminError(`${name} must be a whole number from 1 to ${maximum}, not "${value}".`);
    }
    return parsed;
  };
}

export function registerIndexCommands(program: Command): void {
  const index = program.command('index').description('Fill the local search index: import documents, crawl sites, re-chunk, re-segment and embed old documents');

  index
    .command('import')
    .description('Import a JSONL file of documents ({url, title, text | html, published_date?, language?, news?} per line; docs/search-filters.md)')
    .argument('<file>', 'path of the .jsonl file')
    .option('--json', 'print the result as JSON on the last line')
    .action((file: string, options: { json?: boolean }) => importDocuments(file, options));

  index
    .command('rechunk')
    .description('Cut the documents stored before search chunks existed into chunks (safe to run again)')
    .option('--json', 'print the result as JSON on the last line')
    .action((options: { json?: boolean }) =>
      withAdminContext(async (context) => {
        const report = await context.index.rechunk(context.actor, { onProgress: progressReporter((progress) => `${progress.chunked} documents chunked so far`) });
        printReport(options.json, `chunked ${report.chunked} documents`, report);
      }),
    );

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
    .action((options: { json?: boolean }) =>
      withAdminContext(async (context) => {
        const report = await context.index.resegment(context.actor, {
          onProgress: progressReporter((progress) => `${progress.read} documents read, ${progress.indexed} indexed again`),
        });
        printReport(options.json, `indexed ${report.indexed} documents again`, report);
      }),
    );

  index
    .command('crawl')
    .description('Crawl a site into the index through the crawler worker (start it with `npm start`)')
    .argument('<url>', 'where the crawl starts')
    .option('--max-depth <n>', `link hops from the start page (1-${CRAWL_LIMITS.maxDepth})`, positiveInteger('--max-depth', CRAWL_LIMITS.maxDepth), CRAWL_DEFAULTS.maxDepth)
    .option('--max-breadth <n>', `links followed per page (1-${CRAWL_LIMITS.maxBreadth})`, positiveInteger('--max-breadth', CRAWL_LIMITS.maxBreadth), CRAWL_DEFAULTS.maxBreadth)
    .option('--limit <n>', 'pages to crawl at most', positiveInteger('--limit', CRAWL_LIMITS.limit), CRAWL_DEFAULTS.limit)
    .option(
      '--timeout <seconds>',
      `how long the crawl may run (1-${CRAWL_LIMITS.timeoutSeconds})`,
      positiveInteger('--timeout', CRAWL_LIMITS.timeoutSeconds),
      CRAWL_DEFAULTS.timeoutSeconds,
    )
    .option('--json', 'print the result as JSON on the last line')
    .action((url: string, options: CrawlOptions) => crawlSite(url, options));
}

/**
 * A progress line on stderr (stdout carries only the result, for scripts) at most every PROGRESS_INTERVAL_MS, so
 * short runs print only their result.
 */
function progressReporter<Progress>(line: (progress: Progress) => string): (progress: Progress) => void {
  let lastReportAt = Date.now();
  return (progress) => {
    const now = Date.now();
    if (now - lastReportAt < PROGRESS_INTERVAL_MS) return;
    lastReportAt = now;
    process.stderr.write(`${line(progress)}\n`);
  };
}

/** `<summary> (<seconds> s)`, or the report as JSON. */
function printReport(json: boolean | undefined, summary: string, report: IndexReport, more: string[] = []): void {
  printResult(json, [`${summary} (${Number(report.seconds).toFixed(1)} s)`, ...more], report);
}

/**
 * A file named on the command line, from the folder the command was typed in: `npm run admin` runs in the repository
 * root, and npm says where its caller stood in INIT_CWD.
 */
function commandLinePath(file: string): string {
  return resolve(process.env.INIT_CWD || process.cwd(), file);
}

async function importDocuments(name: string, options: { json?: boolean }): Promise<void> {
  const file = commandLinePath(name);
  if (!existsSync(file)) throw new AdminError(`No such file: ${file}`);
  await withAdminContext(async (context) => {
    const report = await context.index.importFile(
      context.actor,
      file,
      { concurrency: IMPORT_CONCURRENCY, parameters: { file } },
      { onProgress: progressReporter((progress) => `${progress.lines} lines read: imported ${progress.imported}, skipped ${progress.skipped}`) },
    );
    printReport(options.json, `imported ${report.imported}, skipped ${report.skipped}`, report);
  }, IMPORT_CONCURRENCY + 1);
}

async function embedChunks(options: { batchSize: number; json?: boolean }): Promise<void> {
  const config = loadConfig(coreEnv.merge(fetchEnv).merge(modelsEnv));
  const { embeddings } = configuredModels(config, { policy: egressPolicyFromConfig(config) });
  await withAdminContext(async (context) => {
    const report = await context.index.embed(context.actor, embeddings, { batchSize: options.batchSize }, {
      onProgress: progressReporter((progress) => `${progress.embedded} of ${progress.pending} chunks embedded`),
    });
    const index = report.index === 'hnsw' ? 'pgvector HNSW index' : 'scanned in memory';
    printReport(options.json, `embedded ${report.embedded} chunks with ${report.model} (${report.dimension} dimensions, ${index})`, report);
  });
}

async function crawlSite(url: string, options: CrawlOptions): Promise<void> {
  const config = loadConfig(coreEnv);
  const connection = createRedisConnection(config.REDIS_URL);
  const queue = new JobQueue({ connection, prefix: config.QUEUE_PREFIX });
  try {
    await withAdminContext(async (context) => {
      const report = await context.index.crawl(context.actor, queue, {
        url,
        maxDepth: options.maxDepth,
        maxBreadth: options.maxBreadth,
        limit: options.limit,
        timeoutSeconds: options.timeout,
      });
      printResult(
        options.json,
        [
          `crawled ${report.successful_pages} pages into the index, ${report.failed_pages} failed${report.partial ? ' (stopped early by the limit or deadline)' : ''}`,
          `the index now holds ${report.documents} documents`,
        ],
        report,
      );
    });
  } finally {
    await queue.close();
    await closeRedisConnection(connection);
  }
}
