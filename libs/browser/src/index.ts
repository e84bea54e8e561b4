// Browser rendering behind safe-fetch's egress policy.
export { BrowserPool, PageMemoryExceededError, type BrowserPoolOptions, type RenderedPage, type RenderSession } from './browser-pool';
export { browserPoolOptionsOf, type BrowserSettings } from './browser-pool-options';
export { PageSlots } from './page-slots';
export { RenderSessions } from './render-sessions';
