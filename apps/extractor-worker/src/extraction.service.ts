import type { RenderSessions } from '@sift/browser';
import type { WebPage } from '@sift/content-extraction';
import { type AcquiredVia, askedContentOf, Deadline, ExtractionFailure, failureOf, noContentFailure, pageOwnerOf, PageAcquisition, type PageAcquisitionOptions, type PageRequest, STORE_WAIT_MS, valueWithin } from '@sift/pages';
import type { ExtractUrlFailure, ExtractUrlPayload } from '@sift/queue-contracts';
import { FetchError } from '@sift/safe-fetch';

export interface ExtractionServiceOptions extends Omit<PageAcquisitionOptions, 'store'> {
  /** Absent when the worker runs without a database: nothing is cached or stored. */
  pages?: PageAcquisitionOptions['store'];
  /**
   * Renders the pages of one request (its id as the key) in one browser context of the request's own; absent, each
   * render gets a new context from `browser`.
   */
  renderSessions?: Pick<RenderSessions, 'render'>;
}

/**
 * One URL's extraction as the service gives it: the whole page, with the content the caller asked for (the job handler
 * narrows it for the queue: jobResultOf), how the page was got, or the reason it failed.
 */
export type ExtractionOutcome = { ok: true; page: WebPage; content: string; fromCache: boolean; via: AcquiredVia } | ExtractUrlFailure;

/**
 * Extracts one URL through the page acquisition pipeline (@sift/pages: store, fetch, parse, block verdict, browser,
 * store), then cuts what the caller asked for: the format, or the query's chunks. Every per-URL problem is returned as
 * a failed result with the reason and code the caller sees; nothing here throws.
 */
export class ExtractionService {
  private readonly acquisition: PageAcquisition;
  /** Stores still running after their job answered (storeAfterAnswer). */
  private readonly storing = new Set<Promise<void>>();

  constructor(private readonly options: ExtractionServiceOptions) {
    const { pages, renderSessions: _renderSessions, ...acquisition } = options;
    this.acquisition = new PageAcquisition({ ...acquisition, ...(pages ? { store: pages } : {}) });
  }

  /** Stores still running after their job answered. */
  get storesPending(): number {
    return this.storing.size;
  }

  /** Settles once every store still running after its job answered has ended: before the database connection goes. */
  async storesSettled(): Promise<void> {
    await Promise.allSettled([...this.storing]);
  }

  /** The request's renderer, when the worker renders a request's pages in a session of its own. */
  private sessionRenderer(requestId: string): Pick<PageRequest, 'render'> | undefined {
    const sessions = this.options.renderSessions;
    return sessions ? { render: (url, options) => sessions.render(requestId, url, options) } : undefined;
  }

  async extract(payload: ExtractUrlPayload): Promise<ExtractionOutcome> {
    const deadline = Deadline.after(payload.timeoutMs);
    try {
      const acquired = await this.acquisition.acquire({
        url: payload.url,
        owner: pageOwnerOf(payload.accountId),
        needs: { extractDepth: payload.extractDepth, format: payload.format, includeImages: payload.includeImages },
        ...(payload.maxCacheAgeMs ? { maxCacheAgeMs: payload.maxCacheAgeMs } : {}),
        deadline,
        source: 'extract',
        ...(payload.storeAfterAnswer ? { storeAfterAnswer: true } : {}),
        ...(this.sessionRenderer(payload.requestId) ?? {}),
      });
      const page = acquired?.page;
      if (!acquired || !page) throw new Error('the page acquisition answered without a page');
      const content = askedContentOf(page, payload);
      if (content === null) throw noContentFailure();
      // An extract or a search (storeAfterAnswer) gets the page at once, and it is stored after: the answer goes at the
      // page's own time. Any other caller gets it once it is stored (or the store failed), so its next request finds
      // it, unless the store has not written it within STORE_WAIT_MS: a store that stopped answering must not hold
      // the page. Either way the store goes on, and the worker waits for it before it stops.
      const storing = acquired.stored.finally(() => this.storing.delete(storing));
      this.storing.add(storing);
      if (!payload.storeAfterAnswer) await valueWithin(storing, Math.min(STORE_WAIT_MS, deadline.remainingMs()), undefined);
      return {
        ok: true,
        page,
        content,
        fromCache: acquired.via === 'store',
        via: acquired.via,
      };
    } catch (error) {
      if (!(error instanceof ExtractionFailure) && !(error instanceof FetchError)) this.options.onError?.(error, payload.url);
      return { ok: false, url: payload.url, ...failureOf(error, payload.timeoutMs) };
    }
  }
}
