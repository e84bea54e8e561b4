// Extraction time of link-heavy pages (issue #16, item 2): a page that is nothing but links, in a paragraph and in
// a table cell, at 10k and 100k links. Linear conversion makes 100k cost about ten times 10k; a step quadratic in
// the number of links makes it about a hundred times.
// Run: node scripts/run-ts.js bench/extraction/link-heavy-timing.ts [link counts...]
import { extractPage } from '@sift/content-extraction';

type Layout = 'paragraph' | 'table-cell' | 'body';

function linkHeavyPage(links: number, layout: Layout): string {
  const anchors = Array.from({ length: links }, (_, index) => `<a href="/page/${index}">link number ${index}</a>`).join(' ');
  const content = layout === 'paragraph' ? `<p>${anchors}</p>` : layout === 'table-cell' ? `<table><tr><td>${anchors}</td></tr></table>` : anchors;
  return `<!doctype html><html><head><title>Links</title></head><body><main><h1>Links</h1>${content}</main></body></html>`;
}

function cpuMilliseconds(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
}

function main(): void {
  const counts = process.argv.slice(2).map(Number).filter((count) => count > 0);
  for (const layout of ['paragraph', 'table-cell', 'body'] as const) {
    for (const links of counts.length ? counts : [10_000, 100_000]) {
      const html = linkHeavyPage(links, layout);
      const start = process.cpuUsage();
      const page = extractPage(html, { baseUrl: 'http://127.0.0.1:8080/links', includeImages: false, format: 'markdown' });
      const milliseconds = cpuMilliseconds(start);
      console.log(
        `${layout.padEnd(10)} ${String(links).padStart(7)} links  ${(html.length / 1024).toFixed(0).padStart(6)} KiB html  ` +
          `${(page.page.markdown.length / 1024).toFixed(0).padStart(6)} KiB markdown  ${milliseconds.toFixed(0).padStart(7)} ms`,
      );
    }
  }
}

main();
