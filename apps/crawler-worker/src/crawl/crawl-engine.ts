import { PageSlots } from '@sift/browser';
import type { ExtractedLink, WebPage } from '@sift/content-extraction';
import { type AcquiredPage, Deadline, failureOf, type FetchedPage, STORE_WAIT_MS, valueWithin } from '@sift/pages';
import { FetchError } from '@sift/safe-fetch';
import type { CrawledPage, CrawlFailure, CrawlPage } from '@sift/queue-contracts';
import { setMaxListeners } from 'node:events';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { CrawlDependencies, CrawlEngineSettings, CrawlRenderer, DEFAULT_CRAWL_ENGINE_SETTINGS, FetchedResource, RenderedResource } from './crawl-dependencies';
import { CrawlFrontier, FrontierEntry } from './crawl-frontier';
import { CrawlOutcome } from './crawl-outcome';
import { CrawlRequest } from './crawl-request';
import { CrawlScope } from './crawl-scope';
import { ForbiddenTargetError } from './forbidden-target.error';
import type { HostResponse } from './host-concurrency';
import type { HostScheduler, HostSlot } from './host-scheduler';
import { InstructionRelevance } from './instruction-relevance';
import { RobotsRules, robotsRulesFromResponse } from './robots-rules';
import { compileScopePatterns } from './scope-patterns';
import { readSitemap } from './sitemap-reader';
import { TooLateToStartError } from './too-late-to-start.error';
import { pageKey, parseRootUrl, toCrawlableUrl } from './url-normalization';

const ROBOTS_TIMEOUT_MS = 10_000;
// Descriptions (anchor text and surrounding text) kept per linked page for ranking by instructions.
const MAX_INCOMING_DESCRIPTIONS = 20;
/**
 * Links read between two turns of the event loop: a page of 100k links costs the loop about 0.3 s of URL parsing,
 * which would hold up the worker's other crawls, its job-lock renewals and /metrics if done in one go.
 */
const LINKS_PER_TURN = 1_000;
/** Failed pages listed in the answer (all are counted): enough to see what went wrong, bounded for the job result. */
const MAX_REPORTED_FAILURES = 100;

interface CollectedPage {
  visitOrder: number;
  /** The final URL and title, as instruction ranking reads them. */
  url: string;
  key: string;
  title: string;
  /** The page in the requested format. */
  content: string;
  /** The rest of the page went to the document store when it was collected. */
  page: CrawledPage;
}

/** One of the crawl's places for a page in progress, and the bytes its fetched page holds until the page is read. */
interface PagePlace {
  /** Beyond the ceiling and `concurrency`: fetches only while the fetched pages awaiting extraction are few in bytes. */
  backlog: boolean;
  heldBytes: number;
}

interface LinkCandidate {
  url: URL;
  key: string;
  text: string;
  context: string;
}

/**
 * Runs one bounded crawl or map: a frontier held in memory, bounded by `limit` and the deadline, so it is done
 * when the frontier is empty, the limit is reached or the deadline passes (then the result is partial, not an
 * error). Throws InvalidPatternError (400) or ForbiddenTargetError (403) before fetching anything.
 */
export async function runCrawl(request: CrawlRequest, dependencies: CrawlDependencies, signal?: AbortSignal): Promise<CrawlOutcome> {
  const patterns = compileScopePatterns(request);
  const root = parseRootUrl(request.url);
  if (!root) throw new ForbiddenTargetError(request.url, 'not an http(s) URL');
  await dependencies.assertAllowedTarget(root.href);
  return new CrawlRun(request, dependencies, root, new CrawlScope(root, patterns, request.allowExternal)).run(signal);
}

class CrawlRun {
  private readonly settings: CrawlEngineSettings;
  private readonly relevance?: InstructionRelevance;
  private readonly frontier = new CrawlFrontier();
  private readonly hostScheduler: HostScheduler;
  private readonly renderSlots: PageSlots;
  private readonly controller = new AbortController();
  private readonly deadline: number;
  /** Pages enqueued or visited, by page key: a URL is followed once. */
  private readonly seenKeys = new Set<string>();
  /** Pages fetched, including the canonical and redirect targets they stand for. */
  private readonly visitedKeys = new Set<string>();
  private readonly contentFingerprints = new Set<string>();
  private readonly pages: CollectedPage[] = [];
  private readonly mapUrls: string[] = [];
  private readonly sitemapUrls: string[] = [];
  private readonly storing: Promise<void>[] = [];
  /** With instructions: what the links to a page say about it, by page key (anchor-text evidence). */
  private readonly incomingDescriptions = new Map<string, string[]>();
  private failedPages = 0;
  private readonly failures: CrawlFailure[] = [];
  /** In-scope links not followed because robots.txt disallows them. */
  private robotsRefused = 0;
  /** Pages left out because the deadline was too close to fetch them: the crawl is partial though its frontier emptied. */
  private pagesNotStarted = 0;
  private inFlight = 0;
  /** Bytes of fetched pages whose visit has not ended: waiting for an extraction thread, or being read. */
  private backlogBytes = 0;
  private visitCounter = 0;
  private wakeWorkers: Array<() => void> = [];
  /** The crawl's browser context, opened by its first render. */
  private renderer?: CrawlRenderer;

  constructor(
    private readonly request: CrawlRequest,
    private readonly dependencies: CrawlDependencies,
    private readonly root: URL,
    private readonly scope: CrawlScope,
  ) {
    this.settings = { ...DEFAULT_CRAWL_ENGINE_SETTINGS, ...dependencies.settings };
    this.hostScheduler = dependencies.hostScheduler;
    this.renderSlots = new PageSlots(this.settings.maxRenderingPages);
    this.deadline = Date.now() + request.timeoutMs;
    if (request.instructions && request.instructions.trim() !== '') this.relevance = new InstructionRelevance(request.instructions);
  }

  async run(signal?: AbortSignal): Promise<CrawlOutcome> {
    const stopOnAbort = (): void => this.controller.abort(signal?.reason);
    if (signal?.aborted) stopOnAbort();
    signal?.addEventListener('abort', stopOnAbort, { once: true });
    const timer = setTimeout(() => this.controller.abort(new Error('crawl deadline reached')), this.request.timeoutMs);
    const aborted = new Promise<void>((resolve) => {
      if (this.controller.signal.aborted) resolve();
      this.controller.signal.addEventListener('abort', () => resolve(), { once: true });
    });

    try {
      this.seenKeys.add(pageKey(this.root));
      this.frontier.push({ url: this.root, depth: 0, score: Number.POSITIVE_INFINITY });
      const work: Promise<void>[] = [];
      // A host's ceiling of fetches in flight, and `concurrency` more pages being processed (extracted, their links
      // read) meanwhile: a single-site crawl keeps its host at the ceiling while it works on what came back. Where
      // extraction falls behind (a slow or busy machine, a run of large pages), `backlogPages` more keep the host's
      // places busy while the pages awaiting extraction stay under `backlogBytes`.
      const steady = this.settings.concurrency + this.hostScheduler.ceiling;
      const workers = steady + this.settings.backlogPages;
      // Each page in progress may listen for the crawl's cancellation in a few places at once (host wait, fetch, render).
      setMaxListeners(Math.max(10, 4 * workers), this.controller.signal);
      for (let worker = 0; worker < workers; worker += 1) work.push(this.runWorker({ backlog: worker >= steady, heldBytes: 0 }));
      if (this.request.mode === 'map') work.push(this.discoverSitemapUrls());
      // At the deadline the crawl answers with what it has; fetches still running are cancelled by the signal.
      await Promise.race([Promise.all(work), aborted]);
      // The pages stored before the crawl answers (its caller's next search finds them), unless the store has stopped
      // answering: then the crawl answers after STORE_WAIT_MS, and the stores go on.
      await Promise.race([valueWithin(Promise.allSettled(this.storing), STORE_WAIT_MS, undefined), aborted]);
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', stopOnAbort);
      this.wake();
      // Renders still running (the deadline passed) end with the session: the crawl no longer waits for them.
      void this.renderer?.close().catch(() => undefined);
    }
    return this.outcome();
  }

  /**
   * Also true once the deadline has passed but its timer has not fired yet: several fetches can complete in one
   * turn of the event loop, and each would otherwise start an extraction (inline, synchronous) before the timer
   * gets a turn.
   */
  private get stopped(): boolean {
    return this.controller.signal.aborted || Date.now() >= this.deadline;
  }

  private get processedPages(): number {
    return (this.request.mode === 'map' ? this.mapUrls.length : this.pages.length) + this.failedPages;
  }

  private async runWorker(place: PagePlace): Promise<void> {
    while (!this.stopped) {
      const entry = this.processedPages + this.inFlight < this.request.limit ? this.frontier.pop() : undefined;
      if (!entry) {
        if (this.inFlight === 0) break;
        // Another worker's page may add links or give its slot back; wait for it instead of polling.
        await this.nextWake();
        continue;
      }
      this.inFlight += 1;
      try {
        await this.visit(entry, place);
      } catch {
        // One unreadable page fails alone; after cancellation the error is only the abort itself.
        if (!this.stopped) this.failedPages += 1;
      } finally {
        this.inFlight -= 1;
        this.backlogBytes -= place.heldBytes;
        place.heldBytes = 0;
        this.wake();
      }
    }
    this.wake();
  }

  /** Resolves at the next wake(): a page ended, links were added, or the crawl stopped. */
  private nextWake(): Promise<void> {
    return new Promise<void>((resolve) => this.wakeWorkers.push(resolve));
  }

  private get backlogFull(): boolean {
    return this.backlogBytes >= this.settings.backlogBytes;
  }

  /**
   * A place on the page's host. A backlog place first waits until the fetched pages awaiting extraction are under
   * `backlogBytes`, and gives back unused a place granted when they are over it again (it may have waited behind
   * the host's other requests meanwhile): the bound holds when the fetch starts, not only when the place was asked for.
   */
  private async placeOnHost(url: URL, place: PagePlace): Promise<HostSlot> {
    for (;;) {
      while (place.backlog && this.backlogFull && !this.stopped) await this.nextWake();
      const slot = await this.hostScheduler.acquire(url.host, this.controller.signal, this.deadline);
      if (!place.backlog || !this.backlogFull || this.stopped) return slot;
      slot.releaseUnused();
    }
  }

  private wake(): void {
    const waiting = this.wakeWorkers;
    this.wakeWorkers = [];
    for (const resolve of waiting) resolve();
  }

  /** Counts toward the limit when the page ends up in the results or failed; duplicates and refusals do not. */
  private async visit(entry: FrontierEntry, place: PagePlace): Promise<void> {
    const key = pageKey(entry.url);
    if (this.visitedKeys.has(key)) return;
    this.visitedKeys.add(key);
    const visitOrder = this.visitCounter++;

    const listedUnfetched = this.request.mode === 'map' && entry.depth >= this.request.maxDepth;
    // The start page is the caller's own request, fetched as POST /extract fetches a URL: asked for together with its
    // site's robots.txt instead of one round trip after it. It is still read only if robots.txt allows it. Every page
    // the crawl finds waits for the rules before it is asked for (links are checked before they are followed).
    const askedByCaller = entry.depth === 0 && !listedUnfetched;
    const rulesLoading = this.robotsFor(entry.url);
    const startPageRefused = async (): Promise<boolean> => askedByCaller && !(await rulesLoading).isAllowed(entry.url);
    if (!askedByCaller && !(await rulesLoading).isAllowed(entry.url)) {
      this.reportRobotsRefusal(entry.url);
      return;
    }
    if (listedUnfetched) {
      // Map lists the last level without fetching it: its links would not be followed anyway. Unfetched, it is not
      // checked at connect time, so the policy's address rules are applied to the URL itself.
      if (this.dependencies.isReturnableUrl(entry.url.href)) this.mapUrls.push(entry.url.href);
      return;
    }

    // The page's URL after redirects, set when the response is admitted.
    let finalUrl = entry.url;
    let acquired: AcquiredPage | null;
    try {
      acquired = await this.dependencies.acquire({
        url: entry.url.href,
        // The whole page, markdown and images whatever the crawl asked: it is stored, and the store serves it to later
        // extractions and to searches (the crawl's results show its format, and images when asked).
        needs: { extractDepth: this.request.extractDepth, format: 'markdown', includeImages: true },
        links: this.request.mode === 'crawl',
        linksOnly: this.request.mode === 'map',
        // The crawl's next requests wait on the links of a page above its last level: parsed before the last level's.
        urgent: entry.depth < this.request.maxDepth,
        deadline: Deadline.after(Math.max(1, this.deadline - Date.now())),
        fetch: async (url) => {
          const fetched = await this.fetchPage(new URL(url), place);
          place.heldBytes += fetched.body.length;
          this.backlogBytes += fetched.body.length;
          return fetched;
        },
        render: this.dependencies.openRenderer ? (url, { deadlineMs }) => this.renderPage(new URL(url), deadlineMs) : null,
        admit: async (response, bodyDigest) => {
          // Nothing robots.txt disallows is read, stored or followed.
          if (await startPageRefused()) return false;
          const admitted = await this.admit(entry, key, response, bodyDigest);
          if (admitted) finalUrl = admitted;
          return admitted !== null;
        },
      });
    } catch (error) {
      // One unreadable page fails alone (a block or challenge page, an error status, no content); after cancellation
      // the error is only the abort itself.
      if (this.stopped) throw error;
      if (await startPageRefused()) {
        this.reportRobotsRefusal(entry.url);
        return;
      }
      if (error instanceof TooLateToStartError) this.pagesNotStarted += 1;
      else {
        this.failedPages += 1;
        this.reportFailure({ url: entry.url.href, ...failureOf(error, this.settings.pageTimeoutMs) });
      }
      return;
    }
    // A start page robots.txt disallows fails as such, even when the store had a copy (which admit never saw).
    if (await startPageRefused()) {
      this.reportRobotsRefusal(entry.url);
      return;
    }
    // The crawl may have answered while the page was being extracted; it no longer counts.
    if (!acquired || this.stopped) return;
    const links = acquired.links;
    const finalKey = pageKey(finalUrl);
    if (links?.canonicalUrl) {
      const canonical = toCrawlableUrl(links.canonicalUrl, finalUrl.href);
      const canonicalKey = canonical ? pageKey(canonical) : finalKey;
      if (canonical && canonicalKey !== finalKey && this.scope.isInternal(canonical)) {
        if (this.visitedKeys.has(canonicalKey)) return;
        this.visitedKeys.add(canonicalKey);
        this.seenKeys.add(canonicalKey);
      }
    }

    if (this.request.mode === 'map') this.mapUrls.push(finalUrl.href);
    else if (acquired.page) this.collectPage(visitOrder, finalUrl, { ...acquired.page, url: entry.url.href, finalUrl: finalUrl.href }, acquired.stored);

    if (links && !links.robotsNoFollow && entry.depth < this.request.maxDepth) {
      await this.enqueueLinks(links.links, entry.depth + 1);
    }
  }

  /**
   * Whether a fetched page is this crawl's to read, and its URL after redirects: a redirect's target may already be
   * known or lie outside the crawl, and byte-identical pages under two URLs (index.html and the page it copies) are
   * one page. An error status is admitted: the pipeline fails it as the block page or status it is.
   */
  private async admit(entry: FrontierEntry, key: string, response: FetchedPage, bodyDigest: string): Promise<URL | null> {
    if (response.status >= 400) return entry.url;
    const finalUrl = toCrawlableUrl(response.finalUrl) ?? entry.url;
    const finalKey = pageKey(finalUrl);
    if (finalKey !== key) {
      if (this.visitedKeys.has(finalKey)) return null;
      if (entry.depth > 0 && !this.scope.allows(finalUrl)) return null;
      if (!(await this.robotsFor(finalUrl)).isAllowed(finalUrl)) return null;
      this.visitedKeys.add(finalKey);
      this.seenKeys.add(finalKey);
    }
    if (this.stopped) return null;
    // The bytes as fetched, not whitespace-normalised text: a tenth of the main thread's cost per page.
    if (this.contentFingerprints.has(bodyDigest)) return null;
    this.contentFingerprints.add(bodyDigest);
    return finalUrl;
  }

  private collectPage(visitOrder: number, url: URL, page: WebPage, stored: Promise<void>): void {
    const collected: CollectedPage = {
      visitOrder,
      url: url.href,
      key: pageKey(url),
      title: page.title,
      content: this.request.format === 'text' ? page.text : page.markdown,
      // The job's result carries images only when the crawl asked for them; the stored page keeps them.
      page: crawledPageOf(this.request.includeImages ? page : { ...page, images: [] }),
    };
    this.pages.push(collected);
    if (!this.relevance) this.request.onPage?.(this.toResult(collected), visitOrder);
    // The document store is a side effect of crawling; the pipeline reports its failures, never the crawl.
    this.storing.push(stored);
  }

  /** Follows at most `maxBreadth` new in-scope links of a page that robots.txt allows, best first with instructions. */
  private async enqueueLinks(links: ExtractedLink[], depth: number): Promise<void> {
    const candidates: LinkCandidate[] = [];
    const keysOnPage = new Set<string>();
    for (const [index, link] of links.entries()) {
      if (index > 0 && index % LINKS_PER_TURN === 0) {
        await nextTurn();
        // Stopped meanwhile (deadline, limit, caller gone): the rest of the page's links would not be followed.
        if (this.stopped) return;
      }
      if (link.nofollow) continue;
      const url = toCrawlableUrl(link.url);
      if (!url) continue;
      const key = pageKey(url);
      if (this.relevance) this.recordIncoming(key, link);
      if (this.seenKeys.has(key) || keysOnPage.has(key) || !this.scope.allows(url)) continue;
      keysOnPage.add(key);
      candidates.push({ url, key, text: link.text, context: link.context });
    }
    const scores = new Map<LinkCandidate, number>();
    if (this.relevance) {
      for (const candidate of candidates) scores.set(candidate, this.relevance.scoreLink(candidate));
      candidates.sort((left, right) => (scores.get(right) ?? 0) - (scores.get(left) ?? 0));
    }

    let selected = 0;
    let next = 0;
    while (selected < this.request.maxBreadth && next < candidates.length && !this.stopped) {
      // robots.txt of the next few candidates' origins, loaded together; the choice below is then synchronous,
      // so no other worker can enqueue the same page in between.
      const batch = candidates.slice(next, next + (this.request.maxBreadth - selected));
      next += batch.length;
      const rulesByOrigin = new Map<string, RobotsRules>();
      await Promise.all(
        Array.from(new Set(batch.map((candidate) => candidate.url.origin))).map(async (origin) => {
          rulesByOrigin.set(origin, await this.robotsFor(new URL(origin)));
        }),
      );
      for (const candidate of batch) {
        if (this.seenKeys.has(candidate.key)) continue;
        if (!rulesByOrigin.get(candidate.url.origin)?.isAllowed(candidate.url)) {
          this.robotsRefused += 1;
          continue;
        }
        this.seenKeys.add(candidate.key);
        this.frontier.push({ url: candidate.url, depth, score: scores.get(candidate) ?? 0 });
        selected += 1;
      }
    }
    this.wake();
  }

  /** The root, or a page the caller named (links are checked before they are followed): says why it is not crawled. */
  private reportRobotsRefusal(url: URL): void {
    this.reportFailure({ url: url.href, error: 'Disallowed by robots.txt', errorCode: 'robots' });
  }

  private reportFailure(failure: CrawlFailure): void {
    if (this.failures.length < MAX_REPORTED_FAILURES) this.failures.push(failure);
  }

  private recordIncoming(key: string, link: ExtractedLink): void {
    const descriptions = this.incomingDescriptions.get(key) ?? [];
    if (descriptions.length >= MAX_INCOMING_DESCRIPTIONS) return;
    descriptions.push(`${link.text} ${link.context}`);
    this.incomingDescriptions.set(key, descriptions);
  }

  /**
   * One page through the host's politeness gate, retried after errors (maxRetries) and after 429/503 as Retry-After
   * asks (maxThrottledRetries). Throws when no response came (the page fails); the last response of a 429/503 is
   * returned for the pipeline to fail. Each attempt tells the host's limit how it went.
   */
  private async fetchPage(url: URL, place: PagePlace): Promise<FetchedResource> {
    let lastResponse: FetchedResource | undefined;
    let failures = 0;
    let throttles = 0;
    for (;;) {
      let slot: HostSlot;
      try {
        slot = await this.placeOnHost(url, place);
      } catch (error) {
        // A retry the deadline leaves no time for ends the page with what the previous attempt got.
        if (lastResponse && error instanceof TooLateToStartError) return lastResponse;
        throw error;
      }
      const deadlineMs = Math.max(1, Math.min(this.settings.pageTimeoutMs, this.deadline - Date.now()));
      let response: FetchedResource;
      try {
        response = await this.dependencies.fetchResource(url.href, { deadlineMs, signal: this.controller.signal, purpose: 'page' });
      } catch (error) {
        // A timeout cut short by the crawl's own deadline, or a cancellation, says nothing about the host.
        slot.release(this.stopped || (deadlineMs < this.settings.pageTimeoutMs && isTimeout(error)) ? 'ignored' : hostResponseOfError(error));
        // A timeout or reset is often transient (a busy site, or this worker busy extracting a large page).
        if (this.stopped || failures >= this.settings.maxRetries || this.deadline - Date.now() <= 1000) throw error;
        failures += 1;
        continue;
      }
      slot.release(hostResponseOfStatus(response.status));
      if ((response.status !== 429 && response.status !== 503) || throttles >= this.settings.maxThrottledRetries) return response;
      const waitMs = retryAfterMs(response.headers['retry-after']) ?? 1000 * 2 ** throttles;
      if (waitMs > this.settings.maxRetryAfterMs || Date.now() + waitMs >= this.deadline) return response;
      this.hostScheduler.backOff(url.host, waitMs);
      throttles += 1;
      lastResponse = response;
    }
  }

  /**
   * A page in the browser: within its host's politeness gate and the crawl's render budget (maxRenderingPages at once,
   * so one site of client-rendered pages leaves the worker's browser to its other crawls), and stopped waiting for at
   * the crawl's deadline or cancellation (the browser cannot be cancelled mid-render from here). The host's place is
   * taken first: a page waiting on a host (its Crawl-delay, a Retry-After) must not hold one of the few render places.
   */
  private async renderPage(url: URL, deadlineMs: number): Promise<RenderedResource> {
    const openRenderer = this.dependencies.openRenderer;
    if (!openRenderer) throw new Error('this crawl has no browser');
    const hostSlot = await this.hostScheduler.acquire(url.host, this.controller.signal, this.deadline);
    // A render's time is the browser's as much as the host's: only a 429/503 is told to the host's limit.
    let response: HostResponse = 'ignored';
    try {
      const waitingForRender = this.renderSlots.acquire();
      let releaseRender: () => void;
      try {
        releaseRender = await this.orCancelled(waitingForRender);
      } catch (error) {
        void waitingForRender.then((release) => release());
        throw error;
      }
      try {
        const remainingMs = Math.max(1, Math.min(deadlineMs, this.deadline - Date.now()));
        // A crawl that has ended opens no session: its close has run.
        if (this.stopped) throw this.controller.signal.reason ?? new Error('the crawl has ended');
        this.renderer ??= openRenderer.call(this.dependencies);
        const rendered = await this.orCancelled(this.renderer.render(url.href, { deadlineMs: remainingMs }));
        if (hostResponseOfStatus(rendered.status) === 'throttled') response = 'throttled';
        return rendered;
      } finally {
        releaseRender();
      }
    } finally {
      hostSlot.release(response);
    }
  }

  /** `work`, or the crawl's cancellation if that comes first (`work` itself runs on). */
  private orCancelled<Value>(work: Promise<Value>): Promise<Value> {
    const signal = this.controller.signal;
    const cancelled = new Promise<never>((_resolve, reject) => {
      const onAbort = (): void => reject(signal.reason);
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
      void work.finally(() => signal.removeEventListener('abort', onAbort)).catch(() => undefined);
    });
    return Promise.race([work, cancelled]);
  }

  private async robotsFor(url: URL): Promise<RobotsRules> {
    const origin = url.origin;
    const rules = await this.dependencies.robotsCache.rulesFor(origin, async () => {
      const robotsUrl = `${origin}/robots.txt`;
      try {
        const response = await this.dependencies.fetchResource(robotsUrl, {
          deadlineMs: Math.max(1, Math.min(ROBOTS_TIMEOUT_MS, this.deadline - Date.now())),
          signal: this.controller.signal,
          purpose: 'robots',
        });
        return { rules: robotsRulesFromResponse(robotsUrl, response.status, response.text), cache: response.status >= 500 ? 'short' : 'normal' };
      } catch {
        // Unreachable means disallow all (RFC 9309); a cancelled crawl learned nothing worth keeping.
        return { rules: robotsRulesFromResponse(robotsUrl, 0, ''), cache: this.stopped ? 'none' : 'short' };
      }
    });
    if (rules.crawlDelayMs) this.hostScheduler.setCrawlDelay(url.host, rules.crawlDelayMs);
    return rules;
  }

  /** Map only: page URLs from robots.txt `Sitemap:` lines and /sitemap.xml, nested indexes and gzip included. */
  private async discoverSitemapUrls(): Promise<void> {
    const rootRules = await this.robotsFor(this.root);
    const queue = [...rootRules.sitemaps, `${this.root.origin}/sitemap.xml`];
    const readSitemaps = new Set<string>();
    const listedKeys = new Set<string>();
    while (queue.length > 0 && readSitemaps.size < this.settings.maxSitemapFiles && !this.stopped) {
      const sitemapUrl = toCrawlableUrl(queue.shift() ?? '');
      // Sitemaps are read from the crawled site only: a robots.txt must not send the worker elsewhere.
      if (!sitemapUrl || !this.scope.isInternal(sitemapUrl) || readSitemaps.has(sitemapUrl.href)) continue;
      readSitemaps.add(sitemapUrl.href);
      const response = await this.fetchSitemap(sitemapUrl);
      if (!response) continue;
      let entries: ReturnType<typeof readSitemap>;
      try {
        entries = readSitemap(response.body);
      } catch {
        continue;
      }
      queue.push(...entries.sitemaps);
      for (const location of entries.pages) {
        if (this.sitemapUrls.length >= this.request.limit) return;
        const url = toCrawlableUrl(location);
        if (!url || !this.scope.allows(url) || !this.dependencies.isReturnableUrl(url.href)) continue;
        const key = pageKey(url);
        if (listedKeys.has(key)) continue;
        if (!(await this.robotsFor(url)).isAllowed(url)) continue;
        listedKeys.add(key);
        this.sitemapUrls.push(url.href);
      }
    }
  }

  private async fetchSitemap(url: URL): Promise<FetchedResource | undefined> {
    let slot: HostSlot;
    try {
      slot = await this.hostScheduler.acquire(url.host, this.controller.signal, this.deadline);
    } catch (error) {
      if (this.stopped) throw error;
      return undefined;
    }
    // A sitemap's size and compression make its latency no sample of the host's; only a 429/503 is told.
    let response: HostResponse = 'ignored';
    try {
      const fetched = await this.dependencies.fetchResource(url.href, {
        deadlineMs: Math.max(1, Math.min(this.settings.pageTimeoutMs, this.deadline - Date.now())),
        signal: this.controller.signal,
        purpose: 'sitemap',
      });
      if (hostResponseOfStatus(fetched.status) === 'throttled') response = 'throttled';
      return fetched.status < 400 ? fetched : undefined;
    } catch (error) {
      if (this.stopped) throw error;
      return undefined;
    } finally {
      slot.release(response);
    }
  }

  private outcome(): CrawlOutcome {
    const partial = this.stopped || this.pagesNotStarted > 0 || (this.processedPages >= this.request.limit && this.frontier.size > 0);
    if (this.request.mode === 'map') {
      const urls = [...this.mapUrls];
      const listed = new Set(urls.map((url) => pageKey(new URL(url))));
      for (const url of this.sitemapUrls) {
        if (urls.length >= this.request.limit) break;
        const key = pageKey(new URL(url));
        if (listed.has(key)) continue;
        listed.add(key);
        urls.push(url);
      }
      return { baseUrl: this.request.url, pages: [], urls, successfulPages: urls.length, ...this.failureCounts(), partial };
    }
    const pages = this.rankedPages().map((page) => this.toResult(page));
    return { baseUrl: this.request.url, pages, urls: [], successfulPages: pages.length, ...this.failureCounts(), partial };
  }

  private failureCounts(): Pick<CrawlOutcome, 'failedPages' | 'failures' | 'robotsRefused'> {
    return { failedPages: this.failedPages, failures: [...this.failures], robotsRefused: this.robotsRefused };
  }

  /**
   * Crawl order, or with instructions the pages relevant to them, most relevant first: a page is dropped when it
   * scores below RELEVANCE_THRESHOLD of the best page (see InstructionRelevance.rankPages).
   */
  private rankedPages(): CollectedPage[] {
    const inOrder = [...this.pages].sort((left, right) => left.visitOrder - right.visitOrder);
    if (!this.relevance) return inOrder;
    return this.relevance.rankPages(inOrder.map((page) => ({ ...page, incoming: this.incomingDescriptions.get(page.key) })));
  }

  private toResult(collected: CollectedPage): CrawlPage {
    return {
      page: collected.page,
      content: this.relevance ? this.relevance.topChunks(collected.content, this.request.chunksPerSource) : collected.content,
    };
  }
}

function crawledPageOf({ url, finalUrl, title, images, favicon }: WebPage): CrawledPage {
  return favicon === undefined ? { url, finalUrl, title, images } : { url, finalUrl, title, images, favicon };
}

/**
 * What a final status says of the host's capacity: a 2xx is a latency sample; 429 and 503 ask the crawler to slow down;
 * other statuses (a 404, a 500 of one broken page) are often answered by a different, quicker path and say nothing.
 */
function hostResponseOfStatus(status: number): HostResponse {
  if (status === 429 || status === 503) return 'throttled';
  return status >= 200 && status < 300 ? 'answered' : 'ignored';
}

/** No response: a timeout or a network failure counts against the host; a refusal by the egress policy or of the content does not. */
function hostResponseOfError(error: unknown): HostResponse {
  if (error instanceof FetchError) return error.code === 'timeout' || error.code === 'network' ? 'failed' : 'ignored';
  return 'failed';
}

function isTimeout(error: unknown): boolean {
  return error instanceof FetchError && error.code === 'timeout';
}

/** Retry-After as delta-seconds or an HTTP date (RFC 9110 §10.2.3). */
function retryAfterMs(header: string | undefined): number | undefined {
  if (!header) return undefined;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}
