import { resolve } from 'node:path';
import { ThreadPool, ThreadPoolStartError } from '../thread-pool/thread-pool';
import type { ExtractedLinks, PageWithLinks } from '@sift/content-extraction';
import type { PageExtractionOptions } from './crawl-dependencies';
import { PageExtractionResult, PageExtractionTask, runTask } from './page-extraction.task';

const TASK_MODULE = resolve(__dirname, 'page-extraction.task.ts');
const WARM_UP_PAGE = '<html><head><title>Warm-up</title></head><body><main><h1>Warm-up</h1><p>A <a href="/next">link</a>.</p></main></body></html>';
const WARM_UP_OPTIONS: PageExtractionOptions = { baseUrl: 'https://warm-up.invalid/', includeImages: true, format: 'markdown' };

/**
 * Page extraction for crawls, in worker threads: a crawl's CPU time is parsing and converting HTML, and in the
 * crawler's own event loop one big page would hold back every fetch, timer and deadline of every crawl.
 */
export class PageExtractionPool {
  private constructor(
    private readonly pool: ThreadPool<PageExtractionTask, PageExtractionResult>,
    /** Set when threads were asked for but could not start, so extraction runs inline. */
    readonly fallbackReason?: string,
  ) {}

  /** `threads` 0 extracts in the calling thread; so does a pool whose threads cannot load (see fallbackReason). */
  static async start(threads: number, onThreadReplaced?: (cause: Error) => void): Promise<PageExtractionPool> {
    try {
      const pool = await ThreadPool.start({ taskModule: TASK_MODULE, threads, runInline: runTask, onThreadReplaced });
      // One small page per thread loads what the extractor requires lazily, before a crawl waits for it.
      await Promise.all(Array.from({ length: pool.size }, () => pool.run({ kind: 'page', html: WARM_UP_PAGE, options: WARM_UP_OPTIONS }))).catch(
        async (error: unknown) => {
          await pool.close();
          throw error;
        },
      );
      return new PageExtractionPool(pool);
    } catch (error) {
      if (!(error instanceof ThreadPoolStartError)) throw error;
      return new PageExtractionPool(await ThreadPool.start({ taskModule: TASK_MODULE, threads: 0, runInline: runTask }), error.message);
    }
  }

  /** Threads extracting; 0 when extraction runs inline. */
  get threads(): number {
    return this.pool.size;
  }

  async extractPageWithLinks(html: string, options: PageExtractionOptions): Promise<PageWithLinks> {
    const result = await this.pool.run({ kind: 'page', html, options });
    if (result.kind !== 'page') throw new Error('page extraction answered with links only');
    return { page: result.page, links: result.links };
  }

  async extractLinks(html: string, baseUrl: string): Promise<ExtractedLinks> {
    const result = await this.pool.run({ kind: 'links', html, baseUrl });
    if (result.kind !== 'links') throw new Error('link extraction answered with a page');
    return result.links;
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
