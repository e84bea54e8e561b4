import type { BrowserPool, RenderedPage } from '@sift/browser';
import { countryHintsOf, detectBlockPage, extractHtml, extractPdf, extractPlainText, faviconFor } from '@sift/content-extraction';
import type { ExtractUrlPayload, ExtractUrlResult } from '@sift/queue-contracts';
import { topChunks } from '@sift/ranking';
import { type EgressPolicy, type FetchedResource, FetchError, safeFetch } from '@sift/safe-fetch';
import type { DocumentStore, StoredDocument } from '@sift/search-index';
import { Deadline } from './deadline';
import type { ExtractedPage } from './extracted-page';
import { ExtractionFailure, failureReasonOf, timedOutReason } from './extraction-failure';
import { needsBrowser } from './needs-browser';

export interface ExtractionServiceOptions {
  policy: EgressPolicy;
  browser: Pick<BrowserPool, 'render'>;
  /** Absent when the worker runs without a database: nothing is cached or stored. */
  documentStore?: Pick<DocumentStore, 'save' | 'getFresh'>;
  maxBytes?: number;
  onError?: (error: unknown, url: string) => void;
}

// Statuses after which nothing else (not even the browser) can produce the page.
const GONE_STATUSES = new Set([404, 410]);

/**
 * Extracts one URL: document-store cache → safe-fetch → route by content kind → block-page check → browser for
 * advanced depth or pages that plainly need JavaScript → format → query chunks → store. Every per-URL problem is
 * returned as a failed result with the reason the caller sees; nothing here throws.
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
      if (!cached && payload.storeDocument) await this.store(payload.url, page);
      return {
        ok: true,
        url: payload.url,
        rawContent: payload.query ? topChunks(content, payload.query, payload.chunksPerSource) : content,
        ...(payload.includeImages ? { images: page.images.map((image) => image.url) } : {}),
        ...(payload.includeFavicon ? { favicon: page.favicon } : {}),
        title: page.title,
        fromCache: cached !== null,
      };
    } catch (error) {
      if (!(error instanceof ExtractionFailure) && !(error instanceof FetchError)) this.options.onError?.(error, payload.url);
      return { ok: false, url: payload.url, error: failureReasonOf(error, payload.timeoutMs) };
    }
  }

  private async fromCache(payload: ExtractUrlPayload): Promise<ExtractedPage | null> {
    const store = this.options.documentStore;
    if (!store || !payload.maxCacheAgeMs) return null;
    try {
      const stored = await store.getFresh(payload.url, payload.maxCacheAgeMs);
      return stored ? pageFromStoredDocument(stored) : null;
    } catch (error) {
      // The cache only saves time; an unreachable store must not fail the extraction.
      this.options.onError?.(error, payload.url);
      return null;
    }
  }

  private async fetchPage(payload: ExtractUrlPayload, deadline: Deadline): Promise<ExtractedPage> {
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
        return pageFromExtraction(fetched.finalUrl, await extractPdf(fetched.body, fetched.finalUrl));
      case 'text':
      case 'json':
        assertSuccessfulStatus(fetched.status);
        return pageFromExtraction(fetched.finalUrl, await extractPlainText(fetched.text, fetched.finalUrl));
      default:
        throw new ExtractionFailure(`Unsupported content type: ${fetched.mimeType || fetched.kind}`);
    }
  }

  private async htmlPage(payload: ExtractUrlPayload, fetched: FetchedResource, deadline: Deadline): Promise<ExtractedPage> {
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
        if (deadline.expired || !page || page.text.trim() === '') throw error;
        return page;
      });
    }
    // Advanced depth renders every HTML page; when the browser cannot, the HTTP response is the fallback
    // (a 4xx/5xx answer only blocks when the browser could not do better).
    try {
      return await this.renderedPage(payload, deadline);
    } catch (error) {
      if (deadline.expired || error instanceof ExtractionFailure) throw error;
      if (fetched.status >= 400) throw statusFailure(fetched.status, fetched.text);
      assertNotBlocked(fetched.status, fetched.text);
      return pageFromHtml(fetched.text, fetched.finalUrl, payload.includeImages);
    }
  }

  /** The page as served over HTTP; null when it cannot be read without running its scripts. */
  private staticPage(fetched: FetchedResource, payload: ExtractUrlPayload): ExtractedPage | null {
    try {
      return pageFromHtml(fetched.text, fetched.finalUrl, payload.includeImages);
    } catch (error) {
      if (!/<script\b/i.test(fetched.text)) throw error;
      // An empty script-only shell can trip the static extractor; the browser render is the second chance.
      this.options.onError?.(error, payload.url);
      return null;
    }
  }

  private async renderedPage(payload: ExtractUrlPayload, deadline: Deadline): Promise<ExtractedPage> {
    if (deadline.expired) throw new ExtractionFailure(timedOutReason(payload.timeoutMs));
    const rendered: RenderedPage = await this.options.browser.render(payload.url, { deadlineMs: deadline.remainingMs() });
    if (GONE_STATUSES.has(rendered.status)) throw new ExtractionFailure(`HTTP ${rendered.status}`);
    assertNotBlocked(rendered.status, rendered.html, rendered.title);
    if (rendered.status >= 400) throw new ExtractionFailure(`HTTP ${rendered.status}`);
    return pageFromHtml(rendered.html, rendered.finalUrl, payload.includeImages);
  }

  private async store(requestedUrl: string, page: ExtractedPage): Promise<void> {
    const store = this.options.documentStore;
    if (!store) return;
    try {
      await store.save({
        url: requestedUrl,
        finalUrl: page.finalUrl,
        title: page.title,
        description: page.description ?? null,
        markdown: page.markdown,
        text: page.text,
        language: page.language ?? null,
        publishedDate: page.publishedDate ?? null,
        images: page.images,
        isNews: page.isNews ?? false,
        isUnsafe: page.isUnsafe ?? false,
        countryHints: page.countryHints ?? [],
        source: 'extract',
      });
    } catch (error) {
      // The caller asked for content, not for it to be stored; a store outage must not lose the result.
      this.options.onError?.(error, requestedUrl);
    }
  }
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

function pageFromHtml(html: string, finalUrl: string, includeImages: boolean): ExtractedPage {
  const extracted = extractHtml(html, { baseUrl: finalUrl, includeImages });
  return {
    finalUrl,
    title: extracted.title,
    markdown: extracted.markdown,
    text: extracted.text,
    description: extracted.description,
    language: extracted.language,
    publishedDate: extracted.publishedDate,
    images: extracted.images,
    favicon: extracted.favicon ?? faviconFor(html, finalUrl),
    isNews: extracted.isNewsArticle,
    isUnsafe: extracted.isAdult,
    countryHints: countryHintsOf(extracted.contentLanguageHints),
  };
}

interface DocumentExtraction {
  title: string;
  markdown: string;
  text: string;
  language?: string;
  publishedDate?: string;
}

function pageFromExtraction(finalUrl: string, extracted: DocumentExtraction): ExtractedPage {
  return {
    finalUrl,
    title: extracted.title,
    markdown: extracted.markdown,
    text: extracted.text,
    language: extracted.language,
    publishedDate: extracted.publishedDate,
    images: [],
    favicon: faviconFor('', finalUrl),
  };
}

function pageFromStoredDocument(stored: StoredDocument): ExtractedPage {
  return {
    finalUrl: stored.finalUrl,
    title: stored.title,
    markdown: stored.markdown,
    text: stored.text,
    description: stored.description ?? undefined,
    language: stored.language ?? undefined,
    publishedDate: stored.publishedDate?.toISOString(),
    images: stored.images,
    // The store keeps no icon; the origin's conventional one is what most sites serve.
    favicon: faviconFor('', stored.finalUrl),
  };
}
