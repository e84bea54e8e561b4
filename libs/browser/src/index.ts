// Browser rendering behind safe-fetch's egress policy.
export { BrowserPool, type BrowserPoolOptions, type RenderedPage } from './browser-pool';
