import { randomUUID } from 'node:crypto';
import { ADMIN_LIMITS } from '@sift/api-contracts';
import type { EmbeddingsClient } from '@sift/models';
import { importJsonl, type PageRepository } from '@sift/pages';
import { JobFailedError, type JobQueue, JobTimeoutError } from '@sift/queue';
import { CrawlJob, type CrawlPayload, OPERATOR_ACCOUNT_ID } from '@sift/queue-contracts';
import { ChunkEmbedder, type ChunkVectorStore } from '@sift/search-index';
import type { AdminActor } from './admin-actor';
import { AdminError } from './admin-error';
import type { AdminAudit } from './audit/admin-audit';

/** Counts so far, by name (lines, imported, skipped; chunked; read, indexed; embedded, pending). */
export type IndexProgress = Record<string, number>;

/** What an index operation did, as its JSON shows it (the command line's --json line, the admin job's result). */
export type IndexReport = Record<string, string | number | boolean | null>;

export interface IndexRun {
  onProgress?: (progress: IndexProgress) => void;
  /** The admin job running the operation, recorded with it in the audit. */
  jobId?: string;
}

export interface CrawlRequest {
  url: string;
  maxDepth: number;
  maxBreadth: number;
  limit: number;
  timeoutSeconds: number;
}

const CRAWL = ADMIN_LIMITS.crawl;
/** The bounds of an operator crawl: the crawl job's own (spec POST /crawl), the deadline capped at 150 s. */
export const CRAWL_LIMITS = { maxDepth: CRAWL.maxDepth.max, maxBreadth: CRAWL.maxBreadth.max, limit: CRAWL.limit.max, timeoutSeconds: CRAWL.timeoutSeconds.max } as const;
export const CRAWL_DEFAULTS = {
  maxDepth: CRAWL.maxDepth.default,
  maxBreadth: CRAWL.maxBreadth.default,
  limit: CRAWL.limit.default,
  timeoutSeconds: CRAWL.timeoutSeconds.default,
} as const;
/** The worker replies a little after the crawl's own deadline. */
const CRAWL_REPLY_MARGIN_MS = 5_000;
const IMPORT_PROGRESS_EVERY_LINES = 500;

/**
 * Filling the local search index: import a JSONL file, crawl a site (through the crawler worker), chunk and index
 * again what older versions stored, embed chunks. The admin API runs these as jobs, the command line in its own
 * process; both call these methods, so the two cannot drift.
 */
export class IndexAdmin {
  constructor(
    private readonly pages: PageRepository,
    private readonly vectors: ChunkVectorStore,
    private readonly audit: AdminAudit,
  ) {}

  /** `parameters` names the file as the operator gave it (an uploaded file's name, not the server's temporary path). */
  importFile(actor: AdminActor, path: string, options: { concurrency: number; parameters: Record<string, unknown> }, run: IndexRun = {}): Promise<IndexReport> {
    return this.audit.perform(actor, { action: 'index.import', parameters: options.parameters, jobId: run.jobId }, async () => {
      const startedAt = Date.now();
      let lines = 0;
      const result = await importJsonl(path, {
        pages: this.pages,
        concurrency: options.concurrency,
        progressEvery: IMPORT_PROGRESS_EVERY_LINES,
        onProgress: (progress) => {
          lines = progress.lines;
          run.onProgress?.({ lines: progress.lines, imported: progress.imported, skipped: progress.skipped });
        },
      });
      return { lines, imported: result.imported, skipped: result.skipped, seconds: secondsSince(startedAt) };
    });
  }

  rechunk(actor: AdminActor, run: IndexRun = {}): Promise<IndexReport> {
    return this.audit.perform(actor, { action: 'index.rechunk', parameters: {}, jobId: run.jobId }, async () => {
      const startedAt = Date.now();
      const chunked = await this.pages.chunkUnchunked({ onBatch: (total) => run.onProgress?.({ chunked: total }) });
      return { chunked, seconds: secondsSince(startedAt) };
    });
  }

  resegment(actor: AdminActor, run: IndexRun = {}): Promise<IndexReport> {
    return this.audit.perform(actor, { action: 'index.resegment', parameters: {}, jobId: run.jobId }, async () => {
      const startedAt = Date.now();
      const indexed = await this.pages.resegment({ onBatch: (read, done) => run.onProgress?.({ read, indexed: done }) });
      return { indexed, seconds: secondsSince(startedAt) };
    });
  }

  /** `embeddings` absent: EMBEDDINGS_BASE_URL is unset, and the operator is told so. */
  embed(actor: AdminActor, embeddings: EmbeddingsClient | undefined, options: { batchSize: number }, run: IndexRun = {}): Promise<IndexReport> {
    return this.audit.perform(actor, { action: 'index.embed', parameters: { batch_size: options.batchSize }, jobId: run.jobId }, async () => {
      if (!embeddings) throw new AdminError('EMBEDDINGS_BASE_URL is not set: there is no model to embed with (docs/models.md).');
      const startedAt = Date.now();
      const embedder = new ChunkEmbedder(this.vectors, embeddings, { batchSize: options.batchSize });
      const pass = await embedder.embedPending(({ embedded, pending }) => run.onProgress?.({ embedded, pending }));
      if (pass.failure) {
        throw new AdminError(`the embeddings server failed after ${pass.embedded} chunks (${pass.failure.reason}: ${pass.failure.message}); run it again to go on`);
      }
      const hnsw = pass.dimension !== null && (await this.vectors.hasPgvector());
      if (hnsw && pass.dimension !== null) await this.vectors.ensureHnswIndex(pass.dimension);
      return { model: embeddings.model, dimension: pass.dimension, embedded: pass.embedded, pending: pass.pending, index: hnsw ? 'hnsw' : 'memory', seconds: secondsSince(startedAt) };
    });
  }

  /**
   * Crawls a site into the index through the crawler worker (the one process that fetches pages). Operator crawls
   * belong to no customer account and are not billed; their pages are stored as the operator's, shared by all.
   */
  crawl(actor: AdminActor, queue: JobQueue, request: CrawlRequest, run: IndexRun = {}): Promise<IndexReport> {
    const startUrl = /^[a-z][a-z0-9+.-]*:/i.test(request.url) ? request.url : `https://${request.url}`;
    const parameters = { url: startUrl, max_depth: request.maxDepth, max_breadth: request.maxBreadth, limit: request.limit, timeout: request.timeoutSeconds };
    return this.audit.perform(actor, { action: 'index.crawl', parameters, jobId: run.jobId }, async () => {
      checkCrawlRequest(request);
      const payload: CrawlPayload = {
        requestId: `admin-${randomUUID()}`,
        accountId: OPERATOR_ACCOUNT_ID,
        url: startUrl,
        chunksPerSource: 3,
        maxDepth: request.maxDepth,
        maxBreadth: request.maxBreadth,
        limit: request.limit,
        allowExternal: false,
        includeImages: false,
        extractDepth: 'basic',
        format: 'markdown',
        includeFavicon: false,
        timeoutMs: request.timeoutSeconds * 1000,
      };
      try {
        const result = await queue.enqueueAndWait(CrawlJob, payload, { timeoutMs: payload.timeoutMs + CRAWL_REPLY_MARGIN_MS });
        run.onProgress?.({ successful_pages: result.successfulPages, failed_pages: result.failedPages });
        return { successful_pages: result.successfulPages, failed_pages: result.failedPages, partial: result.partial, documents: await this.pages.count() };
      } catch (error) {
        if (error instanceof JobTimeoutError) {
          throw new AdminError(`No crawler worker answered within ${request.timeoutSeconds + CRAWL_REPLY_MARGIN_MS / 1000} s; is it running (npm start)?`);
        }
        if (error instanceof JobFailedError) throw new AdminError(`The crawl failed: ${error.message}`);
        throw error;
      }
    });
  }
}

function checkCrawlRequest(request: CrawlRequest): void {
  const bounds: Array<[string, number, number]> = [
    ['max_depth', request.maxDepth, CRAWL_LIMITS.maxDepth],
    ['max_breadth', request.maxBreadth, CRAWL_LIMITS.maxBreadth],
    ['limit', request.limit, CRAWL_LIMITS.limit],
    ['timeout', request.timeoutSeconds, CRAWL_LIMITS.timeoutSeconds],
  ];
  for (const [name, value, maximum] of bounds) {
    if (!Number.isInteger(value) || value < 1 || value > maximum) throw new AdminError(`${name} must be a whole number from 1 to ${maximum}, not ${value}.`);
  }
}

function secondsSince(startedAt: number): number {
  return (Date.now() - startedAt) / 1000;
}
