import { type BrowserPool, PageMemoryExceededError, type RenderedPage } from '@sift/browser';
import { looksBinary, type WebPage } from '@sift/content-extraction';
import type { ExtractUrlFailure, ExtractUrlPayload } from '@sift/queue-contracts';
import { topChunks } from '@sift/ranking';
import { type EgressPolicy, type FetchedResource, FetchError, safeFetch } from '@sift/safe-fetch';
import { pageOwnerOf, type PageRepository, storedCopyAnswers } from '@sift/pages';
import { bodyDigestOf, type ContentParsingPool, type HtmlAnalysis, type HtmlDocument, type ProducedPage, sourceFingerprintOf, TaskPoolError } from '@sift/task-pool';
import { Deadline } from './deadline';
import { BINARY_CONTENT_REASON, ExtractionFailure, failureReasonOf, parsingFailureReason, timedOutReason } from './extraction-failure';
import { needsBrowser } from './needs-browser';

export interface ExtractionServiceOptions {
  policy: EgressPolicy;
  browser: Pick<BrowserPool, 'render'>;
  /** Every fetched or rendered document is parsed here, off the event loop, within a deadline and a heap cap. */
  parser: Pick<ContentParsingPool, 'html' | 'pdf' | 'text'>;
  /** Absent when the worker runs without a database: nothing is cached or stored. */
  pages?: Pick<PageRepository, 'save' | 'getFresh' | 'refetched'>;
  maxBytes?: number;
  onError?: (error: unknown, url: string) => void;
}

// Statuses after which nothing else (not even the browser) can produce the page.
const GONE_STATUSES = new Set([404, 410]);

/**
 * One URL's extraction as the service gives it: the whole page, with the content the caller asked for (the job handler
 * narrows it for the queue: jobResultOf), or the reason it failed.
 */
export type ExtractionOutcome = { ok: true; page: WebPage; content: string; fromCache: boolean } | ExtractUrlFailure;

/**
 * Extracts one URL: document-store cache → safe-fetch → route by content kind → block-page check → browser for
 * advanced depth or pages that plainly need JavaScript → format → query chunks → store (which keeps nothing for
 * an account with zero data retention). Every per-URL problem is returned as a failed result with the reason the
 * caller sees; nothing here throws.
 */
export class ExtractionService {
  constructor(private readonly options: ExtractionServiceOptions) {}

  async extract(payload: ExtractUrlPayload): Promise<ExtractionOutcome> {
    const deadline = Deadline.after(payload.timeoutMs);
    try {
      const cached = await this.fromCache(payload);
      const produced: ProducedPage = cached ? { page: cached } : await this.fetchPage(payload, deadline);
      const page = produced.page;
      const content = payload.format === 'text' ? page.text : page.markdown;
      if (content.trim() === '') throw new ExtractionFailure('No content could be extracted from the page');
      if (!cached && !produced.reused) await this.store(payload, page, produced.sourceFingerprint);
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

  /**
   * The stored copy, as this request's page (its url is the one asked for, not the stored normalised form), when it
   * holds what the request needs (storedCopyAnswers).
   */
  private async fromCache(payload: ExtractUrlPayload): Promise<WebPage | null> {
    const pages = this.options.pages;
    if (!pages || !payload.maxCacheAgeMs) return null;
    try {
      const stored = await pages.getFresh(pageOwnerOf(payload.accountId), payload.url, payload.maxCacheAgeMs);
      return stored && storedCopyAnswers(stored, payload) ? { ...stored.page, url: payload.url } : null;
    } catch (error) {
      // The cache only saves time; an unreachable store must not fail the extraction.
      this.options.onError?.(error, payload.url);
      return null;
    }
  }

  /**
   * The page this account stored from a response with the same digest, when there is one: the same bytes make the
   * same page, so they are not parsed again (PageRepository.refetched marks it fetched now).
   */
  private async refetched(payload: ExtractUrlPayload, sourceFingerprint: string): Promise<WebPage | null> {
    const pages = this.options.pages;
    if (!pages) return null;
    try {
      const stored = await pages.refetched(pageOwnerOf(payload.accountId), payload.url, sourceFingerprint, 'extract');
      return stored ? { ...stored.page, url: payload.url } : null;
    } catch (error) {
      // Like the cache, this only saves time; an unreachable store must not fail the extraction.
      this.options.onError?.(error, payload.url);
      return null;
    }
  }

  private async fetchPage(payload: ExtractUrlPayload, deadline: Deadline): Promise<ProducedPage> {
    const fetched = await safeFetch(payload.url, {
      policy: this.options.policy,
      deadlineMs: deadline.remainingMs(),
      maxBytes: this.options.maxBytes,
      accept: ['html', 'xhtml', 'pdf', 'text', 'json'],
    });
    // Megabytes of noise served as text would only keep a parser busy; refused before any parsing.
    if (fetched.kind !== 'pdf' && looksBinary(fetched.body, fetched.charset)) throw new ExtractionFailure(BINARY_CONTENT_REASON);
    switch (fetched.kind) {
      case 'html':
      case 'xhtml':
        return this.htmlPage(payload, fetched, deadline);
      case 'pdf':
        assertSuccessfulStatus(fetched.status);
        return { page: await this.parsed(payload, deadline, () => this.options.parser.pdf(fetched.body, fetched.finalUrl, payload.url, deadline.remainingMs())) };
      case 'text':
      case 'json':
        assertSuccessfulStatus(fetched.status);
        return { page: await this.parsed(payload, deadline, () => this.options.parser.text(fetched.text, fetched.finalUrl, payload.url, deadline.remainingMs())) };
      default:
        throw new ExtractionFailure(`Unsupported content type: ${fetched.mimeType || fetched.kind}`);
    }
  }

  private async htmlPage(payload: ExtractUrlPayload, fetched: FetchedResource, deadline: Deadline): Promise<ProducedPage> {
    if (GONE_STATUSES.has(fetched.status)) throw new ExtractionFailure(`HTTP ${fetched.status}`);
    const served = () =>
      this.analysed(payload, deadline, { html: fetched.text, status: fetched.status, baseUrl: fetched.finalUrl, extract: fetched.status < 400 });
    if (payload.extractDepth !== 'advanced') {
      // Only a 200 answer's page is reused or recorded for reuse: it is the one basic depth keeps without a browser.
      const sourceFingerprint = fetched.status === 200 ? sourceFingerprintOf('extract', fetched, bodyDigestOf(fetched.body)) : undefined;
      const reused = sourceFingerprint ? await this.refetched(payload, sourceFingerprint) : null;
      if (reused) return { page: reused, reused: true };
      const analysis = await served();
      assertNotBlocked(fetched.status, analysis);
      const page = this.staticPage(analysis, payload);
      if (page && !needsBrowser(analysis.hasScripts, page.text)) return { page, ...(sourceFingerprint ? { sourceFingerprint } : {}) };
      // Basic depth retries in the browser only for pages that plainly need JavaScript; a failed retry keeps
      // whatever the HTTP response had (not recorded for reuse: the next request tries the browser again).
      return { page: await this.renderedPage(payload, deadline).catch((error: unknown) => {
        if (deadline.expired || !page || page.text.trim() === '' || isEgressRefusal(error)) throw error;
        return page;
      }) };
    }
    // Advanced depth renders every HTML page; when the browser cannot, the HTTP response is the fallback
    // (a 4xx/5xx answer only blocks when the browser could not do better).
    try {
      return { page: await this.renderedPage(payload, deadline) };
    } catch (error) {
      // A page that ran out of memory in the browser, or that navigated where egress is refused, is hostile: its
      // HTTP response is no fallback.
      if (deadline.expired || error instanceof ExtractionFailure || error instanceof PageMemoryExceededError || isEgressRefusal(error)) throw error;
      const analysis = await served();
      assertNotBlocked(fetched.status, analysis);
      return { page: pageOf(analysis) };
    }
  }

  /** The page as served over HTTP; null when it cannot be read without running its scripts. */
  private staticPage(analysis: HtmlAnalysis, payload: ExtractUrlPayload): WebPage | null {
    if (analysis.page || !analysis.hasScripts) return pageOf(analysis);
    // An empty script-only shell can trip the static extractor; the browser render is the second chance.
    this.options.onError?.(new Error(analysis.extractionError), payload.url);
    return null;
  }

  private async renderedPage(payload: ExtractUrlPayload, deadline: Deadline): Promise<WebPage> {
    if (deadline.expired) throw new ExtractionFailure(timedOutReason(payload.timeoutMs));
    const rendered: RenderedPage = await this.options.browser.render(payload.url, { deadlineMs: deadline.remainingMs() });
    if (GONE_STATUSES.has(rendered.status)) throw new ExtractionFailure(`HTTP ${rendered.status}`);
    const analysis = await this.analysed(payload, deadline, {
      html: rendered.html,
      status: rendered.status,
      title: rendered.title,
      baseUrl: rendered.finalUrl,
      extract: rendered.status < 400,
    });
    if (analysis.blockReason) throw blockedFailure(analysis.blockReason);
    if (rendered.status >= 400) throw new ExtractionFailure(`HTTP ${rendered.status}`);
    return pageOf(analysis);
  }

  /**
   * The block-page verdict and (if asked) the page of an HTML response, from a parsing thread. The page is the whole
   * extraction, its images included whatever this request asked: it is stored, and the store serves it to later
   * requests as their cache and to searches, whose options may differ (the responses show images only when asked,
   * page-responses.ts).
   */
  private analysed(payload: ExtractUrlPayload, deadline: Deadline, response: Omit<HtmlDocument, 'url' | 'includeImages'>): Promise<HtmlAnalysis> {
    return this.parsed(payload, deadline, () => this.options.parser.html({ ...response, url: payload.url, includeImages: true }, deadline.remainingMs()));
  }

  /** Runs one parse; a parse stopped by its deadline, its heap cap or a full queue fails the URL with the reason. */
  private async parsed<Parsed>(payload: ExtractUrlPayload, deadline: Deadline, parse: () => Promise<Parsed>): Promise<Parsed> {
    if (deadline.expired) throw new ExtractionFailure(timedOutReason(payload.timeoutMs));
    try {
      return await parse();
    } catch (error) {
      if (!(error instanceof TaskPoolError)) throw error;
      throw new ExtractionFailure(deadline.expired ? timedOutReason(payload.timeoutMs) : parsingFailureReason(error), { cause: error });
    }
  }

  private async store(payload: ExtractUrlPayload, page: WebPage, sourceFingerprint: string | undefined): Promise<void> {
    const pages = this.options.pages;
    if (!pages) return;
    try {
      await pages.save(pageOwnerOf(payload.accountId), page, 'extract', sourceFingerprint ? { sourceFingerprint } : {});
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

/** An error status fails as the block it shows or as the status; a success status fails only when it is a block page. */
function assertNotBlocked(status: number, analysis: HtmlAnalysis): void {
  if (analysis.blockReason) throw blockedFailure(analysis.blockReason);
  if (status >= 400) throw new ExtractionFailure(`HTTP ${status}`);
}

function blockedFailure(reason: string): ExtractionFailure {
  return new ExtractionFailure(`Blocked by the site (${reason})`);
}

/** The extracted page; an extractor that threw is an internal error, as it was on the main thread. */
function pageOf(analysis: HtmlAnalysis): WebPage {
  if (!analysis.page) throw new Error(analysis.extractionError ?? 'the HTML document was not extracted');
  return analysis.page;
}
