import { randomUUID } from 'node:crypto';
import { chromium, type Browser, type BrowserContext, type Page, type Response } from 'playwright-core';
import { assertPublicDestination, createEgressProxy, egressRefusalHeader, FetchError, type EgressPolicy, type EgressProxy } from '@sift/safe-fetch';
import { chromiumArguments } from './chromium-arguments';
import { PageSlots } from './page-slots';
import { processTreeResidentBytes } from './process-memory';

export interface BrowserPoolOptions {
  policy: EgressPolicy;
  /** Default: CHROMIUM_PATH, else /usr/bin/chromium (Debian's package). */
  executablePath?: string;
  /** Default 4. */
  maxConcurrentPages?: number;
  /** Recycle the browser after this many pages; default 100. */
  pagesPerBrowser?: number;
  /** A page with more elements than this fails as too large; default 200 000. */
  maxDomNodes?: number;
  /**
   * Recycle the browser once its processes hold more resident memory than this; a render that sees it exceeded
   * fails at once. Default 1.5 GiB.
   */
  maxBrowserMemoryBytes?: number;
  /** V8 heap cap of each page's renderer, in MB; a page that needs more fails and its browser is recycled. Default 512. */
  maxPageHeapMb?: number;
  /** A serialised page longer than this fails as too large; default 15 MB, as for safe-fetch. */
  maxHtmlBytes?: number;
}

/** Renders that share one browser context: see BrowserPool.openSession. */
export interface RenderSession {
  render(url: string, options: { deadlineMs: number }): Promise<RenderedPage>;
  /** Closes the session's context; pages still rendering in it fail. */
  close(): Promise<void>;
}

export interface RenderedPage {
  requestedUrl: string;
  finalUrl: string;
  status: number;
  html: string;
  title: string;
  elapsedMs: number;
}

/** A render stopped because the page ran past its memory cap (its browser is recycled). */
export class PageMemoryExceededError extends FetchError {
  constructor(url: string, message: string) {
    super('too_large', url, message);
  }
}

interface BrowserLease {
  browser: Browser;
  marker: string;
  pagesStarted: number;
  activePages: number;
  retiring: boolean;
  /** The latest measurement of the browser's resident memory, shared by the pages rendering in it. */
  residentMemory?: { measuredAt: number; bytes: Promise<number | undefined> };
}

interface OpenedForRender {
  /** Set at the render's deadline or end: whatever it opens after that it closes at once. */
  abandoned: boolean;
  context?: BrowserContext;
  page?: Page;
}

interface SessionState {
  closed: boolean;
  /** The context the session's pages render in, and the browser it belongs to. */
  context?: { lease: BrowserLease; context: Promise<BrowserContext> };
}

const defaultMaxBrowserMemoryBytes = 1.5 * 1024 ** 3;
/**
 * Media and fonts add bytes and time but nothing to the text we extract: refused by URL through the DevTools protocol
 * (`Network.setBlockedURLs`), not by a Playwright route, which would turn the context's HTTP cache off and make every
 * page of a crawl's session fetch and compile its site's scripts again.
 */
const skippedUrlPatterns = [
  ...['woff2', 'woff', 'ttf', 'otf', 'eot'],
  ...['mp4', 'm4v', 'webm', 'ogv', 'mov', 'mkv', 'avi', 'mp3', 'm4a', 'oga', 'ogg', 'opus', 'wav', 'flac', 'aac', 'm3u8', 'mpd'],
].map((extension) => `*.${extension}*`);
// Time kept back from the deadline to read the DOM after waiting for the load event.
const readReserveMs = 250;
// How often a rendering page's heap is measured, and how long one measurement of a browser's resident memory (a
// walk over /proc) serves all of its rendering pages.
const memoryCheckIntervalMs = 250;
const residentMemoryReuseMs = 1_000;

/**
 * Renders pages in Debian's Chromium, driven by Playwright. Every request the browser makes leaves through a
 * loopback egress proxy that applies safe-fetch's policy per request; the pool launches lazily, limits
 * concurrent pages, and replaces the browser after `pagesPerBrowser` pages or when it grows too large.
 */
export class BrowserPool {
  private readonly slots: PageSlots;
  private proxy: Promise<EgressProxy> | undefined;
  private current: Promise<BrowserLease> | undefined;
  private readonly leases = new Set<BrowserLease>();
  private closed = false;
  private launched = 0;

  constructor(private readonly options: BrowserPoolOptions) {
    this.slots = new PageSlots(options.maxConcurrentPages ?? 4);
  }

  /** Renders one page in a browser context of its own, closed with it: nothing of an earlier render is seen. */
  render(url: string, { deadlineMs }: { deadlineMs: number }): Promise<RenderedPage> {
    return this.renderIn(undefined, url, deadlineMs);
  }

  /**
   * Renders for one caller's crawl: its pages share one browser context (cookies, storage and the HTTP cache: a
   * site's scripts are fetched and compiled once), as the tabs of one person's browser on a site do, instead of a new
   * context a page, which costs the browser 0.3–0.5 s of CPU each. Two sessions never share a context. The context is
   * replaced when its browser is recycled and closed by `close()`; a render after it fails.
   */
  openSession(): RenderSession {
    const session: SessionState = { closed: false };
    return {
      render: (url, { deadlineMs }) => this.renderIn(session, url, deadlineMs),
      close: async () => {
        session.closed = true;
        const context = session.context;
        session.context = undefined;
        await context?.context.then((opened) => opened.close()).catch(() => undefined);
      },
    };
  }

  private async renderIn(session: SessionState | undefined, url: string, deadlineMs: number): Promise<RenderedPage> {
    const startedAt = performance.now();
    const remainingMs = () => deadlineMs - (performance.now() - startedAt);
    // Fast failure for the obvious cases; the proxy is what actually guards every request.
    await assertPublicDestination(url, this.options.policy);
    const release = await this.slots.acquire();
    try {
      if (this.closed) throw new Error('BrowserPool is closed');
      if (session?.closed) throw new Error('The render session is closed');
      const lease = await this.acquireBrowser();
      lease.pagesStarted += 1;
      lease.activePages += 1;
      // What the render opened: the page, and a context of its own outside a session. At the deadline they go (a
      // session's other pages render on); one opened after it is closed by the render itself.
      const opened: OpenedForRender = { abandoned: false };
      const closeOpened = () => (session ? opened.page : opened.context)?.close().catch(() => undefined);
      try {
        return await withDeadline(
          this.openAndRender(session, lease, opened, closeOpened, url, remainingMs, startedAt),
          remainingMs(),
          () => new FetchError('timeout', url, `Rendering ${url} took longer than ${deadlineMs} ms`),
          () => {
            opened.abandoned = true;
            void closeOpened();
          },
        );
      } finally {
        opened.abandoned = true;
        await closeOpened();
        lease.activePages -= 1;
        await this.recycleIfDue(lease);
      }
    } finally {
      release();
    }
  }

  private async openAndRender(
    session: SessionState | undefined,
    lease: BrowserLease,
    opened: OpenedForRender,
    closeOpened: () => Promise<void> | undefined,
    url: string,
    remainingMs: () => number,
    startedAt: number,
  ): Promise<RenderedPage> {
    const context = session ? await this.sessionContext(session, lease) : (opened.context = await this.newContext(lease));
    opened.page = await context.newPage();
    if (opened.abandoned) {
      await closeOpened();
      throw new Error('The render was abandoned');
    }
    return this.renderInPage(opened.page, context, lease, url, remainingMs, startedAt);
  }

  /** A browser context: service workers and downloads refused. */
  private async newContext(lease: BrowserLease): Promise<BrowserContext> {
    const context = await lease.browser.newContext({
      serviceWorkers: 'block',
      acceptDownloads: false,
      userAgent: desktopUserAgent(lease.browser.version()),
    });
    return context;
  }

  /** The session's context in `lease`'s browser, opened at its first render there. */
  private sessionContext(session: SessionState, lease: BrowserLease): Promise<BrowserContext> {
    // The browser changes only when the old one retires or is gone; closing it (once its last page is read) closes
    // the session's old context with it, so a page still rendering there is not cut short.
    if (session.context?.lease !== lease) {
      const opening = this.newContext(lease);
      session.context = { lease, context: opening };
      // A failed open is not kept: the session's next render tries again.
      opening.catch(() => {
        if (session.context?.context === opening) session.context = undefined;
      });
    }
    return session.context.context;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.current = undefined;
    await Promise.all([...this.leases].map((lease) => lease.browser.close().catch(() => undefined)));
    this.leases.clear();
    const proxy = this.proxy;
    this.proxy = undefined;
    if (proxy) await (await proxy).close();
  }

  private async renderInPage(page: Page, context: BrowserContext, lease: BrowserLease, url: string, remainingMs: () => number, startedAt: number): Promise<RenderedPage> {
    const watch = await this.watchPage(context, page, lease, url);
    try {
      // Whichever comes first: the page read, or its memory running over (then renderIn's finally closes the page).
      return await Promise.race([this.loadAndRead(page, url, remainingMs, startedAt), watch.exceeded]);
    } finally {
      watch.stop();
    }
  }

  /**
   * The page's DevTools session: it refuses the page's fonts and media (skippedUrlPatterns), and fails the render when
   * the page's JavaScript heap passes its cap, its renderer crashes (V8 stops a renderer at
   * the `--max-old-space-size` cap given at launch) or the whole browser passes its memory cap; the browser is then
   * retired, so the next render gets a fresh one.
   */
  private async watchPage(context: BrowserContext, page: Page, lease: BrowserLease, url: string): Promise<{ exceeded: Promise<never>; stop: () => void }> {
    const maxHeapMb = this.maxPageHeapMb;
    const maxBrowserBytes = this.options.maxBrowserMemoryBytes ?? defaultMaxBrowserMemoryBytes;
    let fail: (error: PageMemoryExceededError) => void = () => undefined;
    const exceeded = new Promise<never>((_resolve, reject) => (fail = reject));
    exceeded.catch(() => undefined);
    const overrun = (message: string) => {
      lease.retiring = true;
      fail(new PageMemoryExceededError(url, message));
    };
    page.on('crash', () => overrun(`The page crashed its renderer, out of memory (the cap is ${maxHeapMb} MB per page)`));
    const session = await context.newCDPSession(page);
    await session.send('Performance.enable');
    await session.send('Network.enable');
    await session.send('Network.setBlockedURLs', { urls: skippedUrlPatterns });
    let checking = false;
    const timer = setInterval(() => {
      if (checking) return;
      checking = true;
      void (async () => {
        const { metrics } = await session.send('Performance.getMetrics');
        const heapBytes = metrics.find((metric) => metric.name === 'JSHeapUsedSize')?.value ?? 0;
        if (heapBytes > maxHeapMb * 1024 * 1024) return overrun(`The page used more than ${maxHeapMb} MB of memory and was stopped`);
        const browserBytes = await residentMemoryOf(lease);
        if (browserBytes !== undefined && browserBytes > maxBrowserBytes) {
          overrun(`The browser grew past ${Math.round(maxBrowserBytes / 1024 ** 2)} MB of memory while rendering the page and was stopped`);
        }
      })()
        // The page or its session closing ends the measurements; nothing to report.
        .catch(() => undefined)
        .finally(() => (checking = false));
    }, memoryCheckIntervalMs);
    return {
      exceeded,
      stop: () => {
        clearInterval(timer);
        void session.detach().catch(() => undefined);
      },
    };
  }

  private async loadAndRead(page: Page, url: string, remainingMs: () => number, startedAt: number): Promise<RenderedPage> {
    let lastNavigationUrl = url;
    page.on('request', (request) => {
      if (request.isNavigationRequest() && request.frame() === page.mainFrame()) lastNavigationUrl = request.url();
    });
    // Every document the tab shows arrives as a main-frame navigation response: the first one, a redirect's, a meta
    // refresh's or a script's. One the egress proxy answered itself is its refusal, never the page.
    let proxyAnswer: FetchError | undefined;
    page.on('response', (response) => {
      const request = response.request();
      if (!request.isNavigationRequest() || request.frame() !== page.mainFrame()) return;
      const verdict = response.headers()[egressRefusalHeader];
      if (verdict !== undefined) proxyAnswer ??= egressProxyFailure(url, response.url(), verdict);
    });
    // A refused CONNECT tunnel (https) has no response: the tab shows Chromium's error page instead.
    const failIfProxyAnswered = async () => {
      if (proxyAnswer) throw proxyAnswer;
      if (page.url().startsWith('chrome-error:')) {
        throw await this.navigationFailure(new Error('net::ERR_FAILED'), url, lastNavigationUrl);
      }
    };

    let response: Response | null;
    try {
      response = await page.goto(url, { waitUntil: 'domcontentloaded', timeout: Math.max(1, remainingMs()) });
    } catch (error) {
      throw proxyAnswer ?? (await this.navigationFailure(error, url, lastNavigationUrl));
    }
    await failIfProxyAnswered();
    // Scripts often fill the page between DOMContentLoaded and load; wait for it while time allows.
    await page.waitForLoadState('load', { timeout: Math.max(1, remainingMs() - readReserveMs) }).catch(() => undefined);
    await failIfProxyAnswered();
    const rendered = await this.readPage(page, url, response, startedAt).catch((error: unknown) => {
      // A navigation that replaced the document while it was read: the proxy's answer is the failure to report.
      throw proxyAnswer ?? error;
    });
    // Checked again after reading: a navigation started late may have replaced the document meanwhile.
    await failIfProxyAnswered();
    return rendered;
  }

  private async readPage(page: Page, url: string, response: Response | null, startedAt: number): Promise<RenderedPage> {
    const maxDomNodes = this.options.maxDomNodes ?? 200_000;
    const domNodes = await page.evaluate(() => document.getElementsByTagName('*').length);
    if (domNodes > maxDomNodes) {
      throw new FetchError('too_large', url, `The rendered page has ${domNodes} elements, more than the ${maxDomNodes} allowed`);
    }
    const html = await page.content();
    const maxHtmlBytes = this.options.maxHtmlBytes ?? 15 * 1024 * 1024;
    if (Buffer.byteLength(html) > maxHtmlBytes) {
      throw new FetchError('too_large', url, `The rendered page is larger than the ${maxHtmlBytes}-byte limit`);
    }
    return {
      requestedUrl: url,
      finalUrl: page.url(),
      status: response?.status() ?? 200,
      html,
      title: await page.title(),
      elapsedMs: Math.round(performance.now() - startedAt),
    };
  }

  /** Names the failure of a navigation; a tunnel the proxy refused is reported as the blocked address it was. */
  private async navigationFailure(error: unknown, url: string, lastNavigationUrl: string): Promise<FetchError> {
    const message = error instanceof Error ? error.message : String(error);
    if (error instanceof FetchError) return error;
    try {
      await assertPublicDestination(lastNavigationUrl, this.options.policy);
    } catch (refusal) {
      if (refusal instanceof FetchError) return refusal;
    }
    if (/Timeout \d+ms exceeded/.test(message)) {
      return new FetchError('timeout', url, `Rendering ${url} timed out`, { cause: error });
    }
    if (/Download is starting/.test(message)) {
      return new FetchError('unsupported_content', url, `${url} is a file download, not a web page`, { cause: error });
    }
    const reason = /net::[A-Z_]+/.exec(message)?.[0] ?? message.split('\n')[0];
    return new FetchError('network', url, `The browser could not load ${url} (${reason})`, { cause: error });
  }

  private acquireBrowser(): Promise<BrowserLease> {
    if (!this.current) {
      const launching = this.launch();
      this.current = launching;
      // A failed launch must not be cached: the next render tries again.
      launching.catch(() => {
        if (this.current === launching) this.current = undefined;
      });
    }
    return this.current;
  }

  private async launch(): Promise<BrowserLease> {
    this.proxy ??= createEgressProxy(this.options.policy);
    const proxy = await this.proxy;
    const marker = randomUUID();
    const browser = await chromium.launch({
      executablePath: this.options.executablePath ?? process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      headless: true,
      args: chromiumArguments(proxy.url, marker, this.maxPageHeapMb),
    });
    this.launched += 1;
    const lease: BrowserLease = { browser, marker, pagesStarted: 0, activePages: 0, retiring: false };
    this.leases.add(lease);
    browser.on('disconnected', () => {
      this.leases.delete(lease);
      lease.retiring = true;
      void this.current?.then((active) => {
        if (active === lease) this.current = undefined;
      });
    });
    return lease;
  }

  private async recycleIfDue(lease: BrowserLease): Promise<void> {
    if (!lease.retiring) {
      const pagesPerBrowser = this.options.pagesPerBrowser ?? 100;
      const maxMemory = this.options.maxBrowserMemoryBytes ?? defaultMaxBrowserMemoryBytes;
      const tooOld = lease.pagesStarted >= pagesPerBrowser;
      const tooLarge = !tooOld && ((await processTreeResidentBytes(lease.marker)) ?? 0) > maxMemory;
      if (tooOld || tooLarge) {
        lease.retiring = true;
        if (this.current && (await this.current) === lease) this.current = undefined;
      }
    }
    // Pages still rendering in a retiring browser finish first; the last one out closes it.
    if (lease.retiring && lease.activePages === 0 && this.leases.has(lease)) {
      this.leases.delete(lease);
      await lease.browser.close().catch(() => undefined);
    }
  }

  private get maxPageHeapMb(): number {
    return this.options.maxPageHeapMb ?? 512;
  }

  /** Browsers launched since the pool was created (for tests and metrics). */
  get launchedBrowserCount(): number {
    return this.launched;
  }

  /** Browsers launched and still open (for tests and metrics). */
  get openBrowserCount(): number {
    return this.leases.size;
  }
}

function residentMemoryOf(lease: BrowserLease): Promise<number | undefined> {
  const now = performance.now();
  if (!lease.residentMemory || now - lease.residentMemory.measuredAt > residentMemoryReuseMs) {
    lease.residentMemory = { measuredAt: now, bytes: processTreeResidentBytes(lease.marker) };
  }
  return lease.residentMemory.bytes;
}

/** The egress proxy's own answer to a main-frame navigation, as the failure of the render. */
function egressProxyFailure(url: string, answeredUrl: string, verdict: string): FetchError {
  let host = 'The destination';
  try {
    host = new URL(answeredUrl).host;
  } catch {
    // A URL Chromium navigated to is absolute; the generic name is only a fallback.
  }
  return verdict === 'blocked'
    ? new FetchError('blocked_address', url, `${host} is not allowed: only public internet addresses can be fetched`)
    : new FetchError('network', url, `The browser could not load ${url} (${host} could not be reached)`);
}

/** Headless Chromium announces itself as "HeadlessChrome", which many sites answer with a block page. */
function desktopUserAgent(version: string): string {
  return `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${version} Safari/537.36`;
}

async function withDeadline<T>(work: Promise<T>, timeoutMs: number, timeoutError: () => Error, onTimeout: () => void): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      onTimeout();
      reject(timeoutError());
    }, Math.max(0, timeoutMs));
  });
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
    // The losing side may reject later (the closed context); that rejection is expected and ignored.
    work.catch(() => undefined);
  }
}
