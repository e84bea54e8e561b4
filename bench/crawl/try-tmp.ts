import { startGitDocsSite } from '@sift/testing';
import { createDefaultCrawlDependencies, runCrawl } from '../../apps/crawler-worker/src/crawl';
async function main() {
  const site = await startGitDocsSite();
  const t = performance.now();
  const deps = createDefaultCrawlDependencies({ policy: { allowCidrs: ['127.0.0.1/32'] } });
  const out = await runCrawl({ url: `${site.origin}/index.html`, chunksPerSource: 3, maxDepth: Number(process.argv[2] ?? 1), maxBreadth: Number(process.argv[3] ?? 5), limit: Number(process.argv[4] ?? 1000), allowExternal: false, includeImages: false, extractDepth: 'basic', format: 'markdown', includeFavicon: false, timeoutMs: 60000, mode: (process.argv[5] ?? 'crawl') as 'crawl' }, deps);
  console.log(((performance.now() - t) / 1000).toFixed(2), 's', out.pages.length, out.urls.length, out.failedPages, out.partial, out.pages.slice(0, 6).map((p) => p.url + ' ' + p.rawContent.length));
  console.log([...site.hits.entries()].slice(0, 10));
  await site.close();
}
main();
