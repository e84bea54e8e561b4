import type { BrowserPool, RenderedPage } from '@sift/browser';
import { detectBlockPage, extractHtml, extractPdf, extractPlainText, type WebPage } from '@sift/content-extraction';
import type { ExtractUrlPayload, ExtractUrlResult } from '@sift/queue-contracts';
import { topChunks } from '@sift/ranking';
import { type EgressPolicy, type FetchedResource, FetchError, safeFetch } from '@sift/safe-fetch';
import { pageOwnerOf, type PageRepository } from '@sift/search-index';
import { Deadline } from './deadline';
import { ExtractionFailure, failureReasonOf, timedOutReason } from './extraction-failure';
import { needsBrowser } from './needs-browser';

export interface ExtractionServiceOptions {
  policy: EgressPolicy;
  browser: Pick<BrowserPool, 'render'>;
  /** Absent when the worker runs without a database: nothing is cached or stored. */
  pages?: Pick<PageRepository, 'save' | 'getFresh'>;
  maxBytes?: number;
  onError?: (error: unknown, url: string) => void;
}

// Statuses after which nothing else (not even the browser) can produce the page.
const GONE_STATUSES = new Set([404, 410]);

/**
 * Extracts one URL: document-store cache → safe-fetch → route by content kind → block-page check → browser for
 * advanced depth or pages that plainly need JavaScript → format → query chunks → store (which keeps nothing for
 * an account with zero data retention). Every per-URL problem is returned as a failed result with the reason the
 * caller sees; nothing here throws.
 */
export class ExtractionService {
  constructor(private readonly options: ExtractionServiceOptions) {}

  async extract(payload: ExtractUrlPayload): Promise<ExtractUrlResult> {
    const deadline = Deadline.after(payload.timeoutMs);
    try {
      const cached = await this.fromCache(payload);
      const page = cached ?? (await this.fetchPage(payload, deadline));
      const content = payload.format === 'text' ? page.text : page.markdown;
      if (content.trim() === '') throw new ExtractionFailure('No content could be extracted from the page');
      if (!cached) await this.store(payload, page);
      return {
        ok: true,
        page,
        content: payload.query ? topChunks(content, payload.query, payload.chunksPerSource) : content,
        fromCache: cached !== null,
      };
    } catch (error) {
      if (!(error instanceof ExtractionFailure) && !(error instanceof FetchError)) this.options.onError?.(error, payload.url);
      return { ok: false, url: payload.url, error: failureReasonOf(error, payload.timeoutMs) };
    }
  }

  /** The stored copy, as this request's page: its url is the one asked for, not the stored normalised form. */
  private async fromCache(payload: ExtractUrlPayload): Promise<WebPage | null> {
    const pages = this.options.pages;
    if (!pages || !payload.maxCacheAgeMs) return null;
    try {
      const stored = await pages.getFresh(pageOwnerOf(payload.accountId), payload.url, payload.maxCacheAgeMs);
      return stored ? { ...stored.page, url: payload.url } : null;
    } catch (error) {
      // The cache only saves time; an unreachable store must not fail the extraction.
      this.options.onError?.(error, payload.url);
      return null;
    }
  }

  private async fetchPage(payload: ExtractUrlPayload, deadline: Deadline): Promise<WebPage> {
    const fetched = await safeFetch(payload.url, {
      policy: this.options.policy,
      deadlineMs: deadline.remainingMs(),
      maxBytes: this.options.maxBytes,
      accept: ['html', 'xhtml', 'pdf', 'text', 'json'],
    });
    switch (fetched.kind) {
      case 'html':
      case 'xhtml':
        return this.htmlPage(payload, fetched, deadline);
      case 'pdf':
        assertSuccessfulStatus(fetched.status);
        return extractPdf(fetched.body, fetched.finalUrl, payload.url);
      case 'text':
      case 'json':
        assertSuccessfulStatus(fetched.status);
        return extractPlainText(fetched.text, fetched.finalUrl, payload.url);
      default:
        throw new ExtractionFailure(`Unsupported content type: ${fetched.mimeType || fetched.kind}`);
    }
  }

  private async htmlPage(payload: ExtractUrlPayload, fetched: FetchedResource, deadline: Deadline): Promise<WebPage> {
    if (GONE_STATUSES.has(fetched.status)) throw new ExtractionFailure(`HTTP ${fetched.status}`);
    const wantsBrowser = payload.extractDepth === 'advanced';
    if (fetched.status >= 400 && !wantsBrowser) throw statusFailure(fetched.status, fetched.text);
    if (!wantsBrowser) {
      assertNotBlocked(fetched.status, fetched.text);
      const page = this.staticPage(fetched, payload);
      if (page && !needsBrowser(fetched.text, page.text)) return page;
      // Basic depth retries in the browser only for pages that plainly need JavaScript; a failed retry keeps
      // whatever the HTTP response had.
      return this.renderedPage(payload, deadline).catch((error: unknown) => {
        if (deadline.expired || !page || page.text.trim() === '' || isEgressRefusal(error)) throw error;
        return page;
      });
    }
    // Advanced depth renders every HTML page; when the browser cannot, the HTTP response is the fallback
    // (a 4xx/5xx answer only blocks when the browser could not do better).
    try {
      return await this.renderedPage(payload, deadline);
    } catch (error) {
      if (deadline.expired || error instanceof ExtractionFailure || isEgressRefusal(error)) throw error;
      if (fetched.status >= 400) throw statusFailure(fetched.status, fetched.text);
      assertNotBlocked(fetched.status, fetched.text);
      return pageFromHtml(fetched.text, fetched.finalUrl, payload);
    }
  }

  /** The page as served over HTTP; null when it cannot be read without running its scripts. */
  private staticPage(fetched: FetchedResource, payload: ExtractUrlPayload): WebPage | null {
    try {
      return pageFromHtml(fetched.text, fetched.finalUrl, payload);
    } catch (error) {
      if (!/<script\b/i.test(fetched.text)) throw error;
      // An empty script-only shell can trip the static extractor; the browser render is the second chance.
      this.options.onError?.(error, payload.url);
      return null;
    }
  }

  private async renderedPage(payload: ExtractUrlPayload, deadline: Deadline): Promise<WebPage> {
    if (deadline.expired) throw new ExtractionFailure(timedOutReason(payload.timeoutMs));
    const rendered: RenderedPage = await this.options.browser.render(payload.url, { deadlineMs: deadline.remainingMs() });
    if (GONE_STATUSES.has(rendered.status)) throw new ExtractionFailure(`HTTP ${rendered.status}`);
    assertNotBlocked(rendered.status, rendered.html, rendered.title);
    if (rendered.status >= 400) throw new ExtractionFailure(`HTTP ${rendered.status}`);
    return pageFromHtml(rendered.html, rendered.finalUrl, payload);
  }

  private async store(payload: ExtractUrlPayload, page: WebPage): Promise<void> {
    const pages = this.options.pages;
    if (!pages) return;
    try {
      await pages.save(pageOwnerOf(payload.accountId), page, 'extract');
    } catch (error) {
      // The caller asked for content, not for it to be stored; a store outage must not lose the result.
      this.options.onError?.(error, payload.url);
    }
  }
}

/**
 * The render reached a destination the egress policy refuses (a redirect, meta refresh or script navigating to an
 * internal name): the page is hostile, and the extraction fails as a blocked URL instead of falling back to the
 * HTTP response.
 */
function isEgressRefusal(error: unknown): boolean {
  return error instanceof FetchError && error.code === 'blocked_address';
}

function assertSuccessfulStatus(status: number): void {
  if (status >= 400) throw new ExtractionFailure(`HTTP ${status}`);
}

function statusFailure(status: number, html: string): ExtractionFailure {
  const blockReason = detectBlockPage({ status, html, title: titleOf(html) });
  return new ExtractionFailure(blockReason ? `Blocked by the site (${blockReason})` : `HTTP ${status}`);
}

function assertNotBlocked(status: number, html: string, title: string = titleOf(html)): void {
  const blockReason = detectBlockPage({ status, html, title });
  if (blockReason) throw new ExtractionFailure(`Blocked by the site (${blockReason})`);
}

function titleOf(html: string): string {
  return /<title[^>]*>([^<]*)<\/title>/i.exec(html)?.[1]?.trim() ?? '';
}

function pageFromHtml(html: string, finalUrl: string, payload: ExtractUrlPayload): WebPage {
  return extractHtml(html, { baseUrl: finalUrl, url: payload.url, includeImages: payload.includeImages });
}
