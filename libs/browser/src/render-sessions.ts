import type { BrowserPool, RenderedPage, RenderSession } from './browser-pool';

/** How long a key's session stays open after its last render ends: a request's other URLs are usually on their way. */
const DEFAULT_IDLE_MS = 5_000;

interface KeyedSession {
  session: RenderSession;
  active: number;
  idleTimer?: NodeJS.Timeout;
}

/**
 * One render session per key, for renders that arrive one job at a time: an extract or search request's URLs (its
 * request id as the key) render in one browser context, as a crawl's pages do, and no two keys share one. A key's
 * session closes once it has had no render for `idleMs`.
 */
export class RenderSessions {
  private readonly sessions = new Map<string, KeyedSession>();

  constructor(
    private readonly pool: Pick<BrowserPool, 'openSession'>,
    private readonly idleMs = DEFAULT_IDLE_MS,
  ) {}

  async render(key: string, url: string, options: { deadlineMs: number }): Promise<RenderedPage> {
    let keyed = this.sessions.get(key);
    if (!keyed) {
      keyed = { session: this.pool.openSession(), active: 0 };
      this.sessions.set(key, keyed);
    }
    clearTimeout(keyed.idleTimer);
    keyed.active += 1;
    try {
      return await keyed.session.render(url, options);
    } finally {
      keyed.active -= 1;
      if (keyed.active === 0) this.closeWhenIdle(key, keyed);
    }
  }

  /** Sessions open now (for tests and metrics). */
  get openCount(): number {
    return this.sessions.size;
  }

  /** Closes every session; renders still running in them fail. */
  async close(): Promise<void> {
    const open = [...this.sessions.values()];
    this.sessions.clear();
    for (const keyed of open) clearTimeout(keyed.idleTimer);
    await Promise.all(open.map((keyed) => keyed.session.close()));
  }

  private closeWhenIdle(key: string, keyed: KeyedSession): void {
    keyed.idleTimer = setTimeout(() => {
      if (this.sessions.get(key) !== keyed || keyed.active > 0) return;
      this.sessions.delete(key);
      void keyed.session.close();
    }, this.idleMs);
    keyed.idleTimer.unref();
  }
}
