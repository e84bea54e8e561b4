import { resolve } from 'node:path';
import type { ExtractedLinks, ExtractOptions, IndexedPage, IndexedPageInput, PageWithLinks, WebPage } from '@sift/content-extraction';
import { TaskPool, type TaskRunOptions } from '../task-pool';
import { type ContentParsingResult, type ContentParsingTask, type HtmlAnalysis, type HtmlDocument } from './content-parsing.task';

// No extension: the .ts source under run-ts and Jest, the compiled .js in dist/.
const TASK_MODULE = resolve(__dirname, 'content-parsing.task');
// One parse, links and content: loads everything the HTML path requires lazily.
const WARM_UP: ContentParsingTask = {
  kind: 'page-with-links',
  html: '<html><head><title>Warm-up</title></head><body><main><h1>Warm-up</h1><p>A <a href="/next">link</a>.</p></main></body></html>',
  options: { baseUrl: 'https://warm-up.invalid/', includeImages: true, format: 'markdown' },
};

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
 * The one parsing pool of every worker (the extractor's fetched documents, the crawler's pages): fetched documents
 * become WebPages and links in worker threads, so the worker's event loop only schedules and answers. A document
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
    const pool = await TaskPool.start<ContentParsingTask, ContentParsingResult>({ taskModule: TASK_MODULE, ...limits }, WARM_UP);
    return new ContentParsingPool(pool, maxPdfPages ?? 200);
  }

  get threads(): number {
    return this.pool.threads;
  }

  /** Threads parsing a document now. */
  get busyThreads(): number {
    return this.pool.busyThreads;
  }

  /** The block-page verdict of an HTML response and, when `extract` is set and it is not blocked, its page. */
  async html(document: HtmlDocument, deadlineMs: number): Promise<HtmlAnalysis> {
    const result = await this.pool.run({ kind: 'html', ...document }, { deadlineMs });
    return expectKind(result, 'html').analysis;
  }

  async pdf(data: Uint8Array, url: string, requestedUrl: string, deadlineMs: number): Promise<WebPage> {
    const result = await this.pool.run({ kind: 'pdf', data, url, requestedUrl, maxPages: this.maxPdfPages }, { deadlineMs });
    return expectKind(result, 'page').page;
  }

  async text(text: string, url: string, requestedUrl: string, deadlineMs: number): Promise<WebPage> {
    const result = await this.pool.run({ kind: 'text', text, url, requestedUrl }, { deadlineMs });
    return expectKind(result, 'page').page;
  }

  /** Content and links of a crawled page from one parse. */
  async extractPageWithLinks(html: string, options: ExtractOptions, run: TaskRunOptions = {}): Promise<PageWithLinks> {
    const { page, links } = expectKind(await this.pool.run({ kind: 'page-with-links', html, options }, run), 'page-with-links');
    return { page, links };
  }

  /** A page prepared for the index (PageRepository's `prepare`): its headings, summary line, spaced fields and chunks. */
  async indexedPage(input: IndexedPageInput, run: TaskRunOptions = {}): Promise<IndexedPage> {
    return expectKind(await this.pool.run({ kind: 'index', ...input }, run), 'index').indexed;
  }

  /** The links of a mapped page. */
  async extractLinks(html: string, baseUrl: string, run: TaskRunOptions = {}): Promise<ExtractedLinks> {
    return expectKind(await this.pool.run({ kind: 'links', html, baseUrl }, run), 'links').links;
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}

function expectKind<Kind extends ContentParsingResult['kind']>(result: ContentParsingResult, kind: Kind): Extract<ContentParsingResult, { kind: Kind }> {
  if (result.kind !== kind) throw new Error(`a ${kind} parse answered with a ${result.kind} result`);
  return result as Extract<ContentParsingResult, { kind: Kind }>;
}
