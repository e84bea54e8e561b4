import { resolve } from 'node:path';
import type { ExtractedLinks, PageWithLinks } from '@sift/content-extraction';
import { TaskPool } from '@sift/task-pool';
import type { ExtractionRunOptions, PageExtractionOptions } from './crawl-dependencies';
import type { PageExtractionResult, PageExtractionTask } from './page-extraction.task';

// No extension: the .ts source under run-ts and Jest, the compiled .js in dist/.
const TASK_MODULE = resolve(__dirname, 'page-extraction.task');
const WARM_UP: PageExtractionTask = {
  kind: 'page',
  html: '<html><head><title>Warm-up</title></head><body><main><h1>Warm-up</h1><p>A <a href="/next">link</a>.</p></main></body></html>',
  options: { baseUrl: 'https://warm-up.invalid/', includeImages: true, format: 'markdown' },
};

export interface PageExtractionPoolOptions {
  threads: number;
  /** Longest one page may take to extract; past it the thread is terminated and the page fails. */
  deadlineMs: number;
  /** Heap cap of each thread, in MB. */
  maxHeapMb: number;
  /** Pages waiting for a thread at most; more fail at once. */
  maxQueue: number;
  onThreadError?: (error: Error) => void;
}

/**
 * Page extraction for crawls, in worker threads: a crawl's CPU time is parsing and converting HTML, and in the
 * crawler's own event loop one big (or hostile) page would hold back every fetch, timer and deadline of every
 * crawl. A page that runs past its deadline or heap cap fails alone (TaskPoolError); its thread is replaced.
 */
export class PageExtractionPool {
  private constructor(private readonly pool: TaskPool<PageExtractionTask, PageExtractionResult>) {}

  /** Starts the threads and loads what the extractor requires lazily, before a crawl waits for it. */
  static async start(options: PageExtractionPoolOptions): Promise<PageExtractionPool> {
    return new PageExtractionPool(await TaskPool.start({ taskModule: TASK_MODULE, ...options }, WARM_UP));
  }

  get threads(): number {
    return this.pool.threads;
  }

  async extractPageWithLinks(html: string, options: PageExtractionOptions, run: ExtractionRunOptions = {}): Promise<PageWithLinks> {
    const result = await this.pool.run({ kind: 'page', html, options }, run);
    if (result.kind !== 'page') throw new Error('page extraction answered with links only');
    return { page: result.page, links: result.links };
  }

  async extractLinks(html: string, baseUrl: string, run: ExtractionRunOptions = {}): Promise<ExtractedLinks> {
    const result = await this.pool.run({ kind: 'links', html, baseUrl }, run);
    if (result.kind !== 'links') throw new Error('link extraction answered with a page');
    return result.links;
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
