import { type ExtractedLink, type ExtractedLinks, looksBinary, type WebPage, webPageOf } from '@sift/content-extraction';
import type { CrawledPage, CrawlPage } from '@sift/queue-contracts';
import { bodyDigestOf, type ProducedPage, sourceFingerprintOf } from '@sift/task-pool';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { CrawlDependencies, CrawlEngineSettings, DEFAULT_CRAWL_ENGINE_SETTINGS, FetchedResource } from './crawl-dependencies';
import { CrawlFrontier, FrontierEntry } from './crawl-frontier';
import { CrawlOutcome } from './crawl-outcome';
import { CrawlRequest } from './crawl-request';
import { CrawlScope } from './crawl-scope';
import { ForbiddenTargetError } from './forbidden-target.error';
import { HostScheduler } from './host-scheduler';
import { InstructionRelevance } from './instruction-relevance';
import { RobotsRules, robotsRulesFromResponse } from './robots-rules';
import { compileScopePatterns } from './scope-patterns';
import { readSitemap } from './sitemap-reader';
import { pageKey, parseRootUrl, toCrawlableUrl } from './url-normalization';

const ROBOTS_TIMEOUT_MS = 10_000;
// Descriptions (anchor text and surrounding text) kept per linked page for ranking by instructions.
const MAX_INCOMING_DESCRIPTIONS = 20;
/**
 * Links read between two turns of the event loop: a page of 100k links costs the loop about 0.3 s of URL parsing,
 * which would hold up the worker's other crawls, its job-lock renewals and /metrics if done in one go.
 */
const LINKS_PER_TURN = 1_000;

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
  private inFlight = 0;
  private visitCounter = 0;
  private wakeWorkers: Array<() => void> = [];

  constructor(
    private readonly request: CrawlRequest,
    private readonly dependencies: CrawlDependencies,
    private readonly root: URL,
    private readonly scope: CrawlScope,
  ) {
    this.settings = { ...DEFAULT_CRAWL_ENGINE_SETTINGS, ...dependencies.settings };
    this.hostScheduler = new HostScheduler(this.settings);
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
      for (let worker = 0; worker < this.settings.concurrency; worker += 1) work.push(this.runWorker());
      if (this.request.mode === 'map') work.push(this.discoverSitemapUrls());
      // At the deadline the crawl answers with what it has; fetches still running are cancelled by the signal.
      await Promise.race([Promise.all(work), aborted]);
      await Promise.race([Promise.allSettled(this.storing), aborted]);
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', stopOnAbort);
      this.wake();
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

  private async runWorker(): Promise<void> {
    while (!this.stopped) {
      const entry = this.processedPages + this.inFlight < this.request.limit ? this.frontier.pop() : undefined;
      if (!entry) {
        if (this.inFlight === 0) break;
        // Another worker's page may add links or give its slot back; wait for it instead of polling.
        await new Promise<void>((resolve) => this.wakeWorkers.push(resolve));
        continue;
      }
      this.inFlight += 1;
      try {
        await this.visit(entry);
      } catch {
        // One unreadable page fails alone; after cancellation the error is only the abort itself.
        if (!this.stopped) this.failedPages += 1;
      } finally {
        this.inFlight -= 1;
        this.wake();
      }
    }
    this.wake();
  }

  private wake(): void {
    const waiting = this.wakeWorkers;
    this.wakeWorkers = [];
    for (const resolve of waiting) resolve();
  }

  /** Counts toward the limit when the page ends up in the results or failed; duplicates and refusals do not. */
  private async visit(entry: FrontierEntry): Promise<void> {
    const key = pageKey(entry.url);
    if (this.visitedKeys.has(key)) return;
    this.visitedKeys.add(key);
    const visitOrder = this.visitCounter++;

    const rules = await this.robotsFor(entry.url);
    if (!rules.isAllowed(entry.url)) return;
    if (this.request.mode === 'map' && entry.depth >= this.request.maxDepth) {
      // Map lists the last level without fetching it: its links would not be followed anyway. Unfetched, it is not
      // checked at connect time, so the policy's address rules are applied to the URL itself.
      if (this.dependencies.isReturnableUrl(entry.url.href)) this.mapUrls.push(entry.url.href);
      return;
    }

    const response = await this.fetchPage(entry.url);
    if (!response || response.status >= 400) {
      this.failedPages += 1;
      return;
    }
    const finalUrl = toCrawlableUrl(response.finalUrl) ?? entry.url;
    const finalKey = pageKey(finalUrl);
    if (finalKey !== key) {
      // A redirect: the target is the page, and it may already be known or lie outside the crawl.
      if (this.visitedKeys.has(finalKey)) return;
      if (entry.depth > 0 && !this.scope.allows(finalUrl)) return;
      if (!(await this.robotsFor(finalUrl)).isAllowed(finalUrl)) return;
      this.visitedKeys.add(finalKey);
      this.seenKeys.add(finalKey);
    }

    const isHtml = response.kind === 'html' || response.kind === 'xhtml';
    if (!isHtml && response.kind !== 'text') {
      this.failedPages += 1;
      return;
    }
    // Bytes that are not text (served as HTML or text) are refused before any parsing.
    if (looksBinary(response.body, response.charset)) {
      this.failedPages += 1;
      return;
    }
    if (this.stopped) return;
    // Byte-identical pages under two URLs (index.html and the page it copies) are one page. Hashing the bytes as
    // fetched, not whitespace-normalised text: a tenth of the main thread's cost per page (0.03 against 0.32 ms).
    const fingerprint = bodyDigestOf(response.body);
    if (this.contentFingerprints.has(fingerprint)) return;
    this.contentFingerprints.add(fingerprint);

    let links: ExtractedLinks | undefined;
    // The page and what the store is told: the response's digest, or that the page is the stored one.
    let produced: ProducedPage | undefined;
    const run = { deadlineMs: Math.max(1, this.deadline - Date.now()) };
    if (isHtml && this.request.mode === 'crawl') {
      const sourceFingerprint = this.takesStoredPages(response) ? sourceFingerprintOf('crawl', response, fingerprint) : undefined;
      const reused = sourceFingerprint ? await this.storedPage(entry.url.href, sourceFingerprint) : null;
      if (reused) {
        // The page this crawl's owner stored from the same response: only its links are read again.
        produced = { page: { ...reused, url: entry.url.href, finalUrl: finalUrl.href }, reused: true };
        links = await this.dependencies.extractLinks(response.text, finalUrl.href, run);
      } else {
        // The whole page, markdown and images whatever the crawl asked: it is stored, and the store serves it to later
        // extractions as their cache and to searches (the crawl's results show its format, and images when asked).
        const extracted = await this.dependencies.extractPageWithLinks(response.text, {
          baseUrl: finalUrl.href,
          url: entry.url.href,
          includeImages: true,
          format: 'markdown',
        }, run);
        links = extracted.links;
        produced = { page: extracted.page, ...(sourceFingerprint ? { sourceFingerprint } : {}) };
      }
    } else if (isHtml) {
      links = await this.dependencies.extractLinks(response.text, finalUrl.href, run);
    }
    // The crawl may have answered while the page was being extracted; it no longer counts.
    if (this.stopped) return;
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
    else this.collectPage(visitOrder, finalUrl, produced ?? { page: webPageOf({ url: entry.url.href, finalUrl: finalUrl.href, text: response.text }) });

    if (links && !links.robotsNoFollow && entry.depth < this.request.maxDepth) {
      await this.enqueueLinks(links.links, entry.depth + 1);
    }
    return;
  }

  /**
   * A 200 answer fetched as served (not rendered), when the crawl can store it and ask for it back: the response's
   * page is what extraction makes of it alone, so the same response later makes the same page.
   */
  private takesStoredPages(response: FetchedResource): boolean {
    return response.status === 200 && this.request.extractDepth !== 'advanced' && this.dependencies.storePage !== undefined && this.dependencies.storedPage !== undefined;
  }

  /** The stored page for the same response, or null (also when the store cannot answer: the page is extracted then). */
  private async storedPage(url: string, sourceFingerprint: string): Promise<WebPage | null> {
    try {
      return (await this.dependencies.storedPage?.(url, sourceFingerprint)) ?? null;
    } catch {
      return null;
    }
  }

  private collectPage(visitOrder: number, url: URL, produced: ProducedPage): void {
    const { page } = produced;
    this.pages.push({
      visitOrder,
      url: url.href,
      key: pageKey(url),
      title: page.title,
      content: this.request.format === 'text' ? page.text : page.markdown,
      // The job's result carries images only when the crawl asked for them; the stored page keeps them.
      page: crawledPageOf(this.request.includeImages ? page : { ...page, images: [] }),
    });
    // The document store is a side effect of crawling; its failure must not fail the caller's crawl.
    if (this.dependencies.storePage && !produced.reused) {
      this.storing.push(this.dependencies.storePage(page, produced.sourceFingerprint).catch(() => undefined));
    }
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
        if (!rulesByOrigin.get(candidate.url.origin)?.isAllowed(candidate.url)) continue;
        this.seenKeys.add(candidate.key);
        this.frontier.push({ url: candidate.url, depth, score: scores.get(candidate) ?? 0 });
        selected += 1;
      }
    }
    this.wake();
  }

  private recordIncoming(key: string, link: ExtractedLink): void {
    const descriptions = this.incomingDescriptions.get(key) ?? [];
    if (descriptions.length >= MAX_INCOMING_DESCRIPTIONS) return;
    descriptions.push(`${link.text} ${link.context}`);
    this.incomingDescriptions.set(key, descriptions);
  }

  /** One page through the host's politeness gate, retried after 429/503 as Retry-After asks and after errors; undefined on failure. */
  private async fetchPage(url: URL): Promise<FetchedResource | undefined> {
    for (let attempt = 0; ; attempt += 1) {
      const release = await this.hostScheduler.acquire(url.host, this.controller.signal);
      let response: FetchedResource;
      try {
        const deadlineMs = Math.max(1, Math.min(this.settings.pageTimeoutMs, this.deadline - Date.now()));
        response = await this.fetchOrRender(url, deadlineMs);
      } catch (error) {
        if (this.stopped) throw error;
        // A timeout or reset is often transient (a busy site, or this worker busy extracting a large page).
        if (attempt < this.settings.maxRetries && this.deadline - Date.now() > 1000) continue;
        return undefined;
      } finally {
        release();
      }
      if ((response.status !== 429 && response.status !== 503) || attempt >= this.settings.maxRetries) return response;
      const waitMs = retryAfterMs(response.headers['retry-after']) ?? 1000 * 2 ** attempt;
      if (waitMs > this.settings.maxRetryAfterMs || Date.now() + waitMs >= this.deadline) return response;
      this.hostScheduler.backOff(url.host, waitMs);
    }
  }

  /** Advanced crawls render pages in the browser (scripts run); basic ones fetch the HTML as served. */
  private async fetchOrRender(url: URL, deadlineMs: number): Promise<FetchedResource> {
    const renderPage = this.dependencies.renderPage;
    if (this.request.extractDepth !== 'advanced' || this.request.mode !== 'crawl' || !renderPage) {
      return this.dependencies.fetchResource(url.href, { deadlineMs, signal: this.controller.signal, purpose: 'page' });
    }
    const rendering = renderPage.call(this.dependencies, url.href, { deadlineMs });
    // The browser cannot be cancelled mid-render from here; the crawl stops waiting for it instead.
    const cancelled = new Promise<never>((_resolve, reject) => {
      const onAbort = (): void => reject(this.controller.signal.reason);
      if (this.controller.signal.aborted) onAbort();
      else this.controller.signal.addEventListener('abort', onAbort, { once: true });
      void rendering.finally(() => this.controller.signal.removeEventListener('abort', onAbort)).catch(() => undefined);
    });
    const rendered = await Promise.race([rendering, cancelled]);
    return {
      finalUrl: rendered.finalUrl,
      status: rendered.status,
      headers: {},
      kind: 'html',
      charset: 'utf-8',
      text: rendered.html,
      body: Buffer.from(rendered.html),
    };
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
    const release = await this.hostScheduler.acquire(url.host, this.controller.signal);
    try {
      const response = await this.dependencies.fetchResource(url.href, {
        deadlineMs: Math.max(1, Math.min(this.settings.pageTimeoutMs, this.deadline - Date.now())),
        signal: this.controller.signal,
        purpose: 'sitemap',
      });
      return response.status < 400 ? response : undefined;
    } catch (error) {
      if (this.stopped) throw error;
      return undefined;
    } finally {
      release();
    }
  }

  private outcome(): CrawlOutcome {
    const partial = this.stopped || (this.processedPages >= this.request.limit && this.frontier.size > 0);
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
      return { baseUrl: this.request.url, pages: [], urls, successfulPages: urls.length, failedPages: this.failedPages, partial };
    }
    const pages = this.rankedPages().map((page) => this.toResult(page));
    return { baseUrl: this.request.url, pages, urls: [], successfulPages: pages.length, failedPages: this.failedPages, partial };
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

/** Retry-After as delta-seconds or an HTTP date (RFC 9110 §10.2.3). */
function retryAfterMs(header: string | undefined): number | undefined {
  if (!header) return undefined;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}
