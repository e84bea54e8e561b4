import { type BrowserPool, PageMemoryExceededError, type RenderedPage } from '@sift/browser';
import { type ExtractedLinks, type IndexedPage, looksBinary, refusalStatusReason, type WebPage } from '@sift/content-extraction';
import { failureCodeOfStatus } from '@sift/queue-contracts';
import { type ContentKind, type EgressPolicy, type FetchedResource, FetchError, safeFetch } from '@sift/safe-fetch';
import { bodyDigestOf, type ContentParsingPool, type HtmlAnalysis, type HtmlDocument, sourceFingerprintOf, TaskPoolError } from '@sift/task-pool';
import type { PageRepository } from '../page.repository';
import type { PageNeeds } from '../stored-copy';
import type { PageOwner } from '../stored-page';
import type { Deadline } from './deadline';
import { BINARY_CONTENT_REASON, ExtractionFailure, httpStatusFailure, noContentFailure, parsingFailure, timedOut } from './extraction-failure';
import { needsBrowser } from './needs-browser';
import { storedCopiesAnswering, withinStoreLookup } from './store-lookup';

/**
 * How the pipeline got a page, cheapest first: the store's copy (it holds what was asked), the stored page of an
 * unchanged response (not parsed again), the response as served, or the page as a browser renders it.
 */
export type AcquiredVia = 'store' | 'unchanged' | 'fetch' | 'render';

/** The part of a safe-fetch answer the pipeline reads; a final status is returned, not thrown. */
export type FetchedPage = Pick<FetchedResource, 'finalUrl' | 'status' | 'kind' | 'mimeType' | 'charset' | 'text' | 'body'>;

export type PageFetcher = (url: string, options: { deadlineMs: number }) => Promise<FetchedPage>;
export type PageRenderer = (url: string, options: { deadlineMs: number }) => Promise<Pick<RenderedPage, 'finalUrl' | 'status' | 'html' | 'title'>>;

/** What a caller asks of one page: the pipeline decides the cheapest way to get it. */
export interface PageRequest {
  /** The URL as asked for: the page's `url`. */
  url: string;
  /** On whose behalf: what the store may show (getFreshMany) and keep (save). */
  owner: PageOwner;
  /** What the caller reads of the page; decides what a stored copy may answer and whether to render. */
  needs: PageNeeds;
  /** The page's links too (a crawl follows them). */
  links?: boolean;
  /** Only the links, no page (a map): nothing is stored, and a page is rendered only when its links need it. */
  linksOnly?: boolean;
  /**
   * Other work waits on this page (a crawl's next requests on its links): its parse takes a free parsing thread before
   * pages nobody waits on (a crawl's last level, whose links are not followed).
   */
  urgent?: boolean;
  /** A stored copy younger than this may answer; absent: the store is not asked (the caller just asked it). */
  maxCacheAgeMs?: number;
  deadline: Deadline;
  /** The producer the page is stored as; a response's stored page is taken back only by the producer that made it. */
  source: 'extract' | 'crawl';
  /**
   * The caller answers with the page before it is stored (AcquiredPage.stored settles later): the page's index entry
   * is then prepared by the store, after the answer, instead of by the parse that makes the page, which the answer
   * waits for.
   */
  storeAfterAnswer?: boolean;
  /** Default: safe-fetch under the pipeline's policy. A crawl passes its own (politeness per host, retries). */
  fetch?: PageFetcher;
  /** Default: the pipeline's browser. A crawl passes its own (its render budget); null never renders. */
  render?: PageRenderer | null;
  /**
   * Read before the response is parsed: false drops the page and the pipeline answers null (a crawl's redirect to a
   * page it has, a body identical to one it has).
   */
  admit?: (response: FetchedPage, bodyDigest: string) => boolean | Promise<boolean>;
}

/** One page as the pipeline got it, and how. */
export interface AcquiredPage {
  via: AcquiredVia;
  /** Absent only for a linksOnly request. */
  page?: WebPage;
  /** When asked for (`links` or `linksOnly`) and the page is HTML. */
  links?: ExtractedLinks;
  /** Settles when the page is stored (or not: the store's failures are reported to onError, never thrown). */
  stored: Promise<void>;
}

export interface PageAcquisitionOptions {
  policy: EgressPolicy;
  /** Absent: pages are never rendered (a JavaScript shell fails as having no content). */
  browser?: Pick<BrowserPool, 'render'>;
  /** Every fetched or rendered document is parsed here, off the event loop, within a deadline and a heap cap. */
  parser: Pick<ContentParsingPool, 'html' | 'pdf' | 'text'>;
  /** Absent when the process runs without a database: nothing is looked up or stored. */
  store?: Pick<PageRepository, 'save' | 'getFreshMany' | 'refetched'>;
  maxBytes?: number;
  /** Unexpected errors (a store outage, an extractor bug): logged by the caller, never the request's failure reason. */
  onError?: (error: unknown, url: string) => void;
  /** Each page acquired, by the way it was got (the workers' sift_pages_acquired_total). */
  onAcquired?: (via: AcquiredVia) => void;
}

// Statuses after which nothing else (not even the browser) can produce the page.
const GONE_STATUSES = new Set([404, 410]);
const ACCEPTED_KINDS: ContentKind[] = ['html', 'xhtml', 'pdf', 'text', 'json'];
const NOTHING_TO_STORE: Promise<void> = Promise.resolve();
/**
 * How long a caller that answers once its pages are stored (so that its caller's next request finds them) waits for
 * the store: a working store writes a page in tens of milliseconds, and one that has not within this has stopped
 * answering (or is far behind), which must not hold the pages. The store goes on.
 */
export const STORE_WAIT_MS = 2_000;

interface MadePage {
  via: 'fetch' | 'render';
  page: WebPage;
  links?: ExtractedLinks;
  indexed?: IndexedPage;
  /** The response's digest, when the page is what extraction made of a 200 response alone (no browser). */
  sourceFingerprint?: string;
}

/**
 * The one way a page is acquired, for every caller (the extractor, the crawler's crawl and map, the search's and
 * research's fetches through the extractor): what a stored copy may answer (storedCopyAnswers) → safe fetch → route by
 * content kind (HTML, PDF, text; binary refused) → one parse per response that also yields the links and the index
 * entry → block, challenge and consent-wall verdict → the browser when the page needs it (a JavaScript shell, too
 * little text, advanced depth) → store (which keeps nothing for an account with zero data retention). Per-URL
 * problems throw ExtractionFailure or FetchError, whose message and code are the caller's failure reason (failureOf).
 */
export class PageAcquisition {
  constructor(private readonly options: PageAcquisitionOptions) {}

  async acquire(request: PageRequest): Promise<AcquiredPage | null> {
    const cached = await this.fromStore(request);
    if (cached) return this.acquired({ via: 'store', page: cached, stored: NOTHING_TO_STORE });
    const fetched = await (request.fetch ?? this.safeFetch)(request.url, { deadlineMs: request.deadline.remainingMs() });
    // Megabytes of noise served as text would only keep a parser busy; refused before any parsing.
    if (fetched.kind !== 'pdf' && looksBinary(fetched.body, fetched.charset)) throw new ExtractionFailure('unsupported_type', BINARY_CONTENT_REASON);
    const bodyDigest = bodyDigestOf(fetched.body);
    if (request.admit && !(await request.admit(fetched, bodyDigest))) return null;
    switch (fetched.kind) {
      case 'html':
      case 'xhtml':
        return this.acquired(await this.htmlPage(request, fetched, bodyDigest));
      case 'pdf':
        if (request.linksOnly) return this.acquired({ via: 'fetch', stored: NOTHING_TO_STORE });
        assertSuccessfulStatus(fetched.status);
        return this.acquired(this.stored(request, { via: 'fetch', ...(await this.parsed(request, () => this.options.parser.pdf(fetched.body, fetched.finalUrl, request.url, request.deadline.remainingMs(), this.parseIndexes(request)))) }));
      case 'text':
      case 'json':
        if (request.linksOnly) return this.acquired({ via: 'fetch', stored: NOTHING_TO_STORE });
        assertSuccessfulStatus(fetched.status);
        return this.acquired(this.stored(request, { via: 'fetch', ...(await this.parsed(request, () => this.options.parser.text(fetched.text, fetched.finalUrl, request.url, request.deadline.remainingMs(), this.parseIndexes(request)))) }));
      default:
        throw new ExtractionFailure('unsupported_type', `Unsupported content type: ${fetched.mimeType || fetched.kind}`);
    }
  }

  private readonly safeFetch: PageFetcher = (url, { deadlineMs }) =>
    safeFetch(url, { policy: this.options.policy, deadlineMs, maxBytes: this.options.maxBytes, accept: ACCEPTED_KINDS });

  private acquired(page: AcquiredPage): AcquiredPage {
    this.options.onAcquired?.(page.via);
    return page;
  }

  /**
   * The stored copy, as this request's page (its url is the one asked for, not the stored normalised form), when it
   * holds what the request needs (storedCopyAnswers).
   */
  private async fromStore(request: PageRequest): Promise<WebPage | null> {
    const store = this.options.store;
    if (!store || !request.maxCacheAgeMs || request.linksOnly || request.links) return null;
    const wanted = { viewer: request.owner, urls: [request.url], maxAgeMs: request.maxCacheAgeMs, needs: request.needs };
    const stored = (await storedCopiesAnswering(store, wanted, this.reporterFor(request), request.deadline.remainingMs())).get(request.url);
    return stored ? { ...stored.page, url: request.url } : null;
  }

  /** Where a store lookup's error goes: the caller's log, never the request's failure (the store only saves time). */
  private reporterFor(request: PageRequest): (error: unknown) => void {
    return (error) => this.options.onError?.(error, request.url);
  }

  /** Whether a page made now will be stored. */
  private indexes(request: PageRequest): boolean {
    return this.options.store !== undefined && request.owner !== 'keyless' && !request.linksOnly;
  }

  /** Whether the parse that makes the page prepares its index entry too: when it will be stored, and the caller waits for that. */
  private parseIndexes(request: PageRequest): boolean {
    return this.indexes(request) && !request.storeAfterAnswer;
  }

  private async htmlPage(request: PageRequest, fetched: FetchedPage, bodyDigest: string): Promise<AcquiredPage> {
    if (GONE_STATUSES.has(fetched.status)) throw httpStatusFailure(fetched.status);
    if (request.linksOnly) return this.htmlLinks(request, fetched);
    if (request.needs.extractDepth === 'advanced') return this.stored(request, await this.advancedPage(request, fetched));
    // Only a 200 answer's page is taken back or recorded for it: it is the one basic depth keeps without a browser.
    const sourceFingerprint = fetched.status === 200 && this.indexes(request) ? sourceFingerprintOf(request.source, fetched, bodyDigest) : undefined;
    const unchanged = sourceFingerprint ? await this.refetched(request, sourceFingerprint) : null;
    if (unchanged) {
      // The page is the stored one; a crawl still needs the links, which the store does not keep.
      const links = request.links ? (await this.analysed(request, fetched, { extract: false, links: true, judged: true })).links : undefined;
      return { via: 'unchanged', page: unchanged, ...(links ? { links } : {}), stored: NOTHING_TO_STORE };
    }
    const analysis = await this.analysed(request, fetched, { extract: fetched.status < 400, links: request.links, index: this.parseIndexes(request) });
    assertNotBlocked(fetched.status, analysis);
    const page = this.staticPage(analysis, request);
    if (page && !needsBrowser(analysis.hasScripts, page.text)) {
      return this.stored(request, { via: 'fetch', page, ...madeOf(analysis), ...(sourceFingerprint ? { sourceFingerprint } : {}) });
    }
    // Basic depth renders only pages that plainly need JavaScript; a failed render keeps whatever the HTTP response
    // had (not recorded for reuse: the next request tries the browser again).
    try {
      return this.stored(request, await this.renderedPage(request));
    } catch (error) {
      if (request.deadline.expired || !page || page.text.trim() === '' || isEgressRefusal(error)) throw error;
      return this.stored(request, { via: 'fetch', page, ...madeOf(analysis) });
    }
  }

  /** A map's page: its links, from the browser only when the response is a script's shell. */
  private async htmlLinks(request: PageRequest, fetched: FetchedPage): Promise<AcquiredPage> {
    const analysis = await this.analysed(request, fetched, { extract: false, links: true, textSize: true });
    assertNotBlocked(fetched.status, analysis);
    const render = this.rendererFor(request);
    if (!render || !needsBrowser(analysis.hasScripts, analysis.textChars ?? 0)) return { via: 'fetch', ...(analysis.links ? { links: analysis.links } : {}), stored: NOTHING_TO_STORE };
    try {
      const rendered = await this.rendered(request, render, { extract: false, links: true });
      return { via: 'render', ...(rendered.links ? { links: rendered.links } : {}), stored: NOTHING_TO_STORE };
    } catch (error) {
      if (request.deadline.expired || isEgressRefusal(error)) throw error;
      return { via: 'fetch', ...(analysis.links ? { links: analysis.links } : {}), stored: NOTHING_TO_STORE };
    }
  }

  /**
   * Advanced depth renders every HTML page; when the browser cannot, the HTTP response is the fallback (a 4xx/5xx
   * answer only blocks when the browser could not do better).
   */
  private async advancedPage(request: PageRequest, fetched: FetchedPage): Promise<MadePage> {
    try {
      if (this.rendererFor(request)) return await this.renderedPage(request);
    } catch (error) {
      // A page that ran out of memory in the browser, or that navigated where egress is refused, is hostile: its
      // HTTP response is no fallback.
      if (request.deadline.expired || error instanceof ExtractionFailure || error instanceof PageMemoryExceededError || isEgressRefusal(error)) throw error;
    }
    {
      const analysis = await this.analysed(request, fetched, { extract: fetched.status < 400, links: request.links, index: this.parseIndexes(request) });
      assertNotBlocked(fetched.status, analysis);
      return { via: 'fetch', page: pageOf(analysis), ...madeOf(analysis) };
    }
  }

  /** The page as served over HTTP; null when it cannot be read without running its scripts. */
  private staticPage(analysis: HtmlAnalysis, request: PageRequest): WebPage | null {
    if (analysis.page || !analysis.hasScripts) return pageOf(analysis);
    // An empty script-only shell can trip the static extractor; the browser render is the second chance.
    this.options.onError?.(new Error(analysis.extractionError), request.url);
    return null;
  }

  private rendererFor(request: PageRequest): PageRenderer | null {
    if (request.render !== undefined) return request.render;
    const browser = this.options.browser;
    return browser ? (url, options) => browser.render(url, options) : null;
  }

  private async renderedPage(request: PageRequest): Promise<MadePage> {
    const render = this.rendererFor(request);
    if (!render) throw noContentFailure();
    const analysis = await this.rendered(request, render, { extract: true, links: request.links, index: this.parseIndexes(request) });
    return { via: 'render', page: pageOf(analysis), ...madeOf(analysis) };
  }

  /** The page as the browser renders it, judged and parsed as asked; a block or error status fails it. */
  private async rendered(request: PageRequest, render: PageRenderer, asked: Pick<HtmlDocument, 'extract' | 'links' | 'index' | 'textSize' | 'judged'>): Promise<HtmlAnalysis> {
    if (request.deadline.expired) throw timedOut(request.deadline.budgetMs);
    const page = await render(request.url, { deadlineMs: request.deadline.remainingMs() });
    if (GONE_STATUSES.has(page.status)) throw httpStatusFailure(page.status);
    const analysis = await this.parsed(request, () =>
      this.options.parser.html(
        { html: page.html, status: page.status, title: page.title, baseUrl: page.finalUrl, url: request.url, includeImages: true, ...asked, extract: asked.extract && page.status < 400 },
        request.deadline.remainingMs(),
        request.urgent,
      ),
    );
    assertNotBlocked(page.status, analysis);
    return analysis;
  }

  /**
   * The verdict and what was asked of an HTML response, from a parsing thread. The page is the whole extraction, its
   * images included whatever this request asked: it is stored, and the store serves it to later requests and to
   * searches, whose options may differ (the responses show images only when asked).
   */
  private analysed(request: PageRequest, fetched: FetchedPage, asked: Pick<HtmlDocument, 'extract' | 'links' | 'index' | 'textSize' | 'judged'>): Promise<HtmlAnalysis> {
    return this.parsed(request, () =>
      this.options.parser.html({ html: fetched.text, status: fetched.status, baseUrl: fetched.finalUrl, url: request.url, includeImages: true, ...asked }, request.deadline.remainingMs(), request.urgent),
    );
  }

  /** Runs one parse; a parse stopped by its deadline, its heap cap or a full queue fails the URL with the reason. */
  private async parsed<Parsed>(request: PageRequest, parse: () => Promise<Parsed>): Promise<Parsed> {
    const deadline = request.deadline;
    if (deadline.expired) throw timedOut(deadline.budgetMs);
    try {
      return await parse();
    } catch (error) {
      if (!(error instanceof TaskPoolError)) throw error;
      throw deadline.expired ? timedOut(deadline.budgetMs, { cause: error }) : parsingFailure(error);
    }
  }

  /**
   * The page this owner stored from a response with the same digest, when there is one: the same bytes make the same
   * page, so they are not parsed again (PageRepository.refetched marks it fetched now).
   */
  private async refetched(request: PageRequest, sourceFingerprint: string): Promise<WebPage | null> {
    const store = this.options.store;
    // Like the cache, this only saves time (withinStoreLookup).
    const stored = store ? await withinStoreLookup(store.refetched(request.owner, request.url, sourceFingerprint, request.source), request.deadline.remainingMs(), this.reporterFor(request)) : null;
    return stored ? { ...stored.page, url: request.url } : null;
  }

  /** Starts storing a page made now; the caller decides whether to wait for it. */
  private stored(request: PageRequest, made: MadePage & { page: WebPage }): AcquiredPage {
    const { via, page, links, indexed, sourceFingerprint } = made;
    const store = this.options.store;
    const stored = store && !request.linksOnly
      ? store
          .save(request.owner, page, request.source, { ...(sourceFingerprint ? { sourceFingerprint } : {}), ...(indexed ? { indexed } : {}) })
          .then(() => undefined)
          // The caller asked for the page, not for it to be stored; a store outage must not lose it.
          .catch((error: unknown) => this.options.onError?.(error, request.url))
      : NOTHING_TO_STORE;
    return { via, page, ...(links ? { links } : {}), stored };
  }
}

function madeOf(analysis: HtmlAnalysis): Pick<MadePage, 'links' | 'indexed'> {
  return { ...(analysis.links ? { links: analysis.links } : {}), ...(analysis.indexed ? { indexed: analysis.indexed } : {}) };
}

/**
 * The render reached a destination the egress policy refuses (a redirect, meta refresh or script navigating to an
 * internal name): the page is hostile, and it fails as a blocked URL instead of falling back to the HTTP response.
 */
function isEgressRefusal(error: unknown): boolean {
  return error instanceof FetchError && error.code === 'blocked_address';
}

function assertSuccessfulStatus(status: number): void {
  if (status >= 400) throw httpStatusFailure(status);
}

/**
 * An error status fails as the block it shows or as the status; a success status fails only when it is a block page.
 * A refusal status (401, 403, 429, 503) is always judged a block; its code is the status's (forbidden, rate_limited,
 * server_error) unless the page itself is a challenge or block page.
 */
function assertNotBlocked(status: number, analysis: HtmlAnalysis): void {
  if (analysis.blockReason) {
    const code = analysis.blockReason === refusalStatusReason(status) ? failureCodeOfStatus(status) : 'blocked';
    throw new ExtractionFailure(code, `Blocked by the site (${analysis.blockReason})`);
  }
  if (status >= 400) throw httpStatusFailure(status);
}

/** The extracted page; an extractor that threw is an internal error (a bug to log), not the page's failure reason. */
function pageOf(analysis: HtmlAnalysis): WebPage {
  if (!analysis.page) throw new Error(analysis.extractionError ?? 'the HTML document was not extracted');
  return analysis.page;
}
