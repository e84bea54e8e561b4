import { readFileSync } from 'node:fs';
import { extractHtml } from '@sift/content-extraction';
import { readHtmlLinks } from '../../apps/crawler-worker/src/crawl/html-link-reader';
for (const f of ['user-manual.html', 'index.html', 'git-merge.html']) {
  const html = readFileSync(`/work/shared/bench-data/git-htmldocs-site/site/${f}`, 'utf8');
  let t = performance.now(); extractHtml(html, { baseUrl: 'http://x/' + f }); const e = performance.now() - t;
  t = performance.now(); const l = readHtmlLinks(html, 'http://x/' + f); const r = performance.now() - t;
  console.log(f, html.length, 'extract', e.toFixed(0), 'links', r.toFixed(0), l.links.length);
}
