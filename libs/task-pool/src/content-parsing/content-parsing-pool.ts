import { resolve } from 'node:path';
import type { IndexedPage, IndexedPageInput, WebPage } from '@sift/content-extraction';
import { TaskPool, type TaskRunOptions } from '../task-pool';
import { type ContentParsingResult, type ContentParsingTask, type HtmlAnalysis, type HtmlDocument } from './content-parsing.task';
import { warmUpPageHtml } from './warm-up-page';

/** Parses of the warm-up page per thread at start: the first is the costly one, the next few let V8 optimise. */
const WARM_UP_ROUNDS = 5;

// No extension: the .ts source under run-ts and Jest, the compiled .js in dist/.
const TASK_MODULE = resolve(__dirname, 'content-parsing.task');
// A parse of a page with its links and index entry: runs everything the HTML path requires.
const WARM_UP: ContentParsingTask = {
  kind: 'html',
  html: warmUpPageHtml(),
  status: 200,
  baseUrl: 'https://warm-up.invalid/',
  url: 'https://warm-up.invalid/',
  includeImages: true,
  extract: true,
  links: true,
  index: true,
};

/** A page made by a parse, with its index entry when the parse was asked to prepare it. */
export interface ParsedPage {
  page: WebPage;
  indexed?: IndexedPage;
}

export interface ContentParsingPoolOptions {
  /** Parsing threads, over all jobs of the process (the worker's validated config: its CPU quota by default). */
  threads: number;
  /** Longest one document may take to parse (the caller's own deadline may be shorter). */
  deadlineMs: number;
  /** Heap cap of each thread, in MB. */
  maxHeapMb: number;
  /** Documents waiting for a thread at most; more fail at once. */
  maxQueue: number;
  /** Pages of a PDF read at most. */
  maxPdfPages?: number;
  onThreadError?: (error: Error) => void;
}

/**
 * The one parsing pool of every worker, run by the acquisition pipeline (@sift/pages): fetched and rendered documents
 * become WebPages, links and index entries in worker threads, so the worker's event loop only schedules and answers. A document
 * that would hang or bloat its parser fails alone with a TaskPoolError within its deadline and heap cap; its
 * thread is replaced.
 */
export class ContentParsingPool {
  private constructor(
    private readonly pool: TaskPool<ContentParsingTask, ContentParsingResult>,
    private readonly maxPdfPages: number,
  ) {}

  /** Starts the threads and loads what parsing requires lazily, before the first job waits for it. */
  static async start(options: ContentParsingPoolOptions): Promise<ContentParsingPool> {
    const { maxPdfPages, ...limits } = options;
    const pool = await TaskPool.start<ContentParsingTask, ContentParsingResult>({ taskModule: TASK_MODULE, ...limits }, WARM_UP, WARM_UP_ROUNDS);
    return new ContentParsingPool(pool, maxPdfPages ?? 200);
  }

  get threads(): number {
    return this.pool.threads;
  }

  /** Threads parsing a document now. */
  get busyThreads(): number {
    return this.pool.busyThreads;
  }

  /**
   * The block-page verdict of an HTML response and what `document` asks of it besides: its page, its links, its index
   * entry, all from one parse. `urgent`: other work waits on it (TaskRunOptions.urgent).
   */
  async html(document: HtmlDocument, deadlineMs: number, urgent = false): Promise<HtmlAnalysis> {
    const result = await this.pool.run({ kind: 'html', ...document }, { deadlineMs, urgent });
    return expectKind(result, 'html').analysis;
  }

  /** A PDF's page, and its index entry when it is to be stored. */
  async pdf(data: Uint8Array, url: string, requestedUrl: string, deadlineMs: number, index = false): Promise<ParsedPage> {
    const { page, indexed } = expectKind(await this.pool.run({ kind: 'pdf', data, url, requestedUrl, maxPages: this.maxPdfPages, index }, { deadlineMs }), 'page');
    return indexed ? { page, indexed } : { page };
  }

  /** A text response's page, and its index entry when it is to be stored. */
  async text(text: string, url: string, requestedUrl: string, deadlineMs: number, index = false): Promise<ParsedPage> {
    const { page, indexed } = expectKind(await this.pool.run({ kind: 'text', text, url, requestedUrl, index }, { deadlineMs }), 'page');
    return indexed ? { page, indexed } : { page };
  }

  /** A page prepared for the index (PageRepository's `prepare`) when its parse did not prepare it: imports, old callers. */
  async indexedPage(input: IndexedPageInput, run: TaskRunOptions = {}): Promise<IndexedPage> {
    return expectKind(await this.pool.run({ kind: 'index', ...input }, run), 'index').indexed;
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}

function expectKind<Kind extends ContentParsingResult['kind']>(result: ContentParsingResult, kind: Kind): Extract<ContentParsingResult, { kind: Kind }> {
  if (result.kind !== kind) throw new Error(`a ${kind} parse answered with a ${result.kind} result`);
  return result as Extract<ContentParsingResult, { kind: Kind }>;
}
