import { resolve } from 'node:path';
import type { WebPage } from '@sift/content-extraction';
import { TaskPool } from '@sift/task-pool';
import type { ContentParsingResult, ContentParsingTask, HtmlAnalysis, HtmlDocument } from './content-parsing.task';

// No extension: the .ts source under run-ts and Jest, the compiled .js in dist/.
const TASK_MODULE = resolve(__dirname, 'content-parsing.task');
const WARM_UP: ContentParsingTask = {
  kind: 'html',
  html: '<html><head><title>Warm-up</title></head><body><main><h1>Warm-up</h1><p>A <a href="/next">link</a>.</p></main></body></html>',
  status: 200,
  baseUrl: 'https://warm-up.invalid/',
  url: 'https://warm-up.invalid/',
  includeImages: true,
  extract: true,
};

export interface ContentParserOptions {
  /** Parsing threads. */
  threads: number;
  /** Longest one document may take to parse (the request's own deadline may be shorter). */
  deadlineMs: number;
  /** Heap cap of each thread, in MB. */
  maxHeapMb: number;
  /** Documents waiting for a thread at most. */
  maxQueue: number;
  /** Pages of a PDF read at most. */
  maxPdfPages: number;
  onThreadError?: (error: Error) => void;
}

/**
 * Turns fetched documents into WebPages in worker threads (the extractor's event loop only schedules and answers):
 * a document that would hang or bloat its parser fails with a TaskPoolError within its deadline and heap cap.
 */
export class ContentParser {
  private constructor(
    private readonly pool: TaskPool<ContentParsingTask, ContentParsingResult>,
    private readonly maxPdfPages: number,
  ) {}

  static async start(options: ContentParserOptions): Promise<ContentParser> {
    const pool = await TaskPool.start<ContentParsingTask, ContentParsingResult>(
      { taskModule: TASK_MODULE, threads: options.threads, deadlineMs: options.deadlineMs, maxHeapMb: options.maxHeapMb, maxQueue: options.maxQueue, onThreadError: options.onThreadError },
      WARM_UP,
    );
    return new ContentParser(pool, options.maxPdfPages);
  }

  get threads(): number {
    return this.pool.threads;
  }

  /** The block-page verdict of an HTML response and, when `extract` is set and it is not blocked, its page. */
  async html(document: HtmlDocument, deadlineMs: number): Promise<HtmlAnalysis> {
    const result = await this.pool.run({ kind: 'html', ...document }, { deadlineMs });
    if (result.kind !== 'html') throw new Error('HTML parsing answered with a page only');
    return result.analysis;
  }

  pdf(data: Uint8Array, url: string, requestedUrl: string, deadlineMs: number): Promise<WebPage> {
    return this.page({ kind: 'pdf', data, url, requestedUrl, maxPages: this.maxPdfPages }, deadlineMs);
  }

  text(text: string, url: string, requestedUrl: string, deadlineMs: number): Promise<WebPage> {
    return this.page({ kind: 'text', text, url, requestedUrl }, deadlineMs);
  }

  private async page(task: ContentParsingTask, deadlineMs: number): Promise<WebPage> {
    const result = await this.pool.run(task, { deadlineMs });
    if (result.kind !== 'page') throw new Error('document parsing answered with an HTML verdict');
    return result.page;
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
