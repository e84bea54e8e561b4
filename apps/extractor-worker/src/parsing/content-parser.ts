import { resolve } from 'node:path';
import type { WebPage } from '@sift/content-extraction';
import { TaskPool } from '@sift/task-pool';
import type { ContentParsingTask } from './content-parsing.task';

const TASK_MODULE = resolve(__dirname, 'content-parsing.task.ts');
const WARM_UP: ContentParsingTask = {
  kind: 'html',
  html: '<html><head><title>Warm-up</title></head><body><main><h1>Warm-up</h1><p>A <a href="/next">link</a>.</p></main></body></html>',
  baseUrl: 'https://warm-up.invalid/',
  url: 'https://warm-up.invalid/',
  includeImages: true,
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

export type HtmlDocument = Omit<Extract<ContentParsingTask, { kind: 'html' }>, 'kind'>;

/**
 * Turns fetched documents into WebPages in worker threads (the extractor's event loop only schedules and answers):
 * a document that would hang or bloat its parser fails with a TaskPoolError within its deadline and heap cap.
 */
export class ContentParser {
  private constructor(
    private readonly pool: TaskPool<ContentParsingTask, WebPage>,
    private readonly maxPdfPages: number,
  ) {}

  static async start(options: ContentParserOptions): Promise<ContentParser> {
    const pool = await TaskPool.start<ContentParsingTask, WebPage>(
      { taskModule: TASK_MODULE, threads: options.threads, deadlineMs: options.deadlineMs, maxHeapMb: options.maxHeapMb, maxQueue: options.maxQueue, onThreadError: options.onThreadError },
      WARM_UP,
    );
    return new ContentParser(pool, options.maxPdfPages);
  }

  get threads(): number {
    return this.pool.threads;
  }

  html(document: HtmlDocument, deadlineMs: number): Promise<WebPage> {
    return this.pool.run({ kind: 'html', ...document }, { deadlineMs });
  }

  pdf(data: Uint8Array, url: string, requestedUrl: string, deadlineMs: number): Promise<WebPage> {
    return this.pool.run({ kind: 'pdf', data, url, requestedUrl, maxPages: this.maxPdfPages }, { deadlineMs });
  }

  text(text: string, url: string, requestedUrl: string, deadlineMs: number): Promise<WebPage> {
    return this.pool.run({ kind: 'text', text, url, requestedUrl }, { deadlineMs });
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
