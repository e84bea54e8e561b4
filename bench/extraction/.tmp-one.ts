import { readFileSync } from 'node:fs';
import { extractHtml } from '@sift/content-extraction';
const file = process.argv[2];
const html = readFileSync(file, 'utf8');
const t = Date.now();
const r = extractHtml(html, { baseUrl: 'http://127.0.0.1:8080/x.html', includeImages: true });
console.log('ms', Date.now() - t, 'len', r.markdown.length);
if (process.argv[3]) console.log(r.markdown.slice(0, Number(process.argv[3])));
