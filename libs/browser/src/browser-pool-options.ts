import type { EgressPolicy } from '@sift/safe-fetch';
import type { BrowserPoolOptions } from './browser-pool';

/** The browser settings of a worker's validated config (libs/config's browser fragment and its Chromium settings). */
export interface BrowserSettings {
  CHROMIUM_PATH: string;
  BROWSER_PAGES: number;
  BROWSER_PAGE_HEAP_MB: number;
  BROWSER_MEMORY_MB: number;
}

/** The pool's options from a worker's config: every worker that renders pages builds its pool the same way. */
export function browserPoolOptionsOf(settings: BrowserSettings, policy: EgressPolicy): BrowserPoolOptions {
  return {
    policy,
    executablePath: settings.CHROMIUM_PATH,
    maxConcurrentPages: settings.BROWSER_PAGES,
    maxPageHeapMb: settings.BROWSER_PAGE_HEAP_MB,
    maxBrowserMemoryBytes: settings.BROWSER_MEMORY_MB * 1024 * 1024,
  };
}
