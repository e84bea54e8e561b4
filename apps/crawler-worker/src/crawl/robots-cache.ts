import { RobotsRules } from './robots-rules';

export interface RobotsCacheOptions {
  /** RFC 9309 §2.4: a cached robots.txt should not be used for more than 24 hours. */
  ttlMs?: number;
  /** An unreachable robots.txt is retried sooner than a good one goes stale. */
  unreachableTtlMs?: number;
  maxEntries?: number;
}

interface CacheEntry {
  rules: Promise<RobotsRules>;
  expiresAt: number;
}

/**
 * robots.txt rules per origin, shared by the crawls of one worker so a site is not asked again for every job.
 * Concurrent lookups of one origin share the same load.
 */
export class RobotsCache {
  private readonly entries = new Map<string, CacheEntry>();
  private readonly ttlMs: number;
  private readonly unreachableTtlMs: number;
  private readonly maxEntries: number;

  constructor(options: RobotsCacheOptions = {}, private readonly now: () => number = Date.now) {
    this.ttlMs = options.ttlMs ?? 24 * 60 * 60 * 1000;
    this.unreachableTtlMs = options.unreachableTtlMs ?? 60 * 1000;
    this.maxEntries = options.maxEntries ?? 10_000;
  }

  /**
   * Cached rules of `origin`, or the result of `load`. `load` reports whether its answer is only a stand-in
   * (robots.txt unreachable), which is kept for a shorter time, or should not be kept at all (the crawl was cancelled).
   */
  rulesFor(origin: string, load: () => Promise<{ rules: RobotsRules; cache: 'normal' | 'short' | 'none' }>): Promise<RobotsRules> {
    const current = this.entries.get(origin);
    if (current && current.expiresAt > this.now()) return current.rules;

    const loading = load();
    const entry: CacheEntry = { rules: loading.then((loaded) => loaded.rules), expiresAt: Number.POSITIVE_INFINITY };
    this.entries.delete(origin);
    this.entries.set(origin, entry);
    this.evictOldest();
    loading.then(
      (loaded) => {
        if (loaded.cache === 'none') this.forget(origin, entry);
        else entry.expiresAt = this.now() + (loaded.cache === 'short' ? this.unreachableTtlMs : this.ttlMs);
      },
      () => this.forget(origin, entry),
    );
    return entry.rules;
  }

  private forget(origin: string, entry: CacheEntry): void {
    if (this.entries.get(origin) === entry) this.entries.delete(origin);
  }

  private evictOldest(): void {
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) return;
      this.entries.delete(oldest);
    }
  }
}
