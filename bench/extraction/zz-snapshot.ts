import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { extractPage } from '@sift/content-extraction';
const roots = ['/work/shared/bench-data/git-htmldocs-site/site', '/work/shared/bench-data/scrapinghub-aeb/dev/html', '/work/shared/bench-data/trafilatura-eval/dev/html'];
function htmlFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return htmlFiles(full);
    return /\.html?(\.gz)?$/.test(entry.name) ? [full] : [];
  });
}
const out: Record<string, string> = {};
for (const root of roots) for (const file of htmlFiles(root)) {
  const raw = readFileSync(file); const html = (file.endsWith('.gz') ? gunzipSync(raw) : raw).toString('utf8');
  out[file] = extractPage(html, { baseUrl: 'http://127.0.0.1:8080/x', includeImages: true, format: 'markdown' }).content.markdown;
}
writeFileSync(process.argv[2], JSON.stringify(out));
console.log(Object.keys(out).length);
