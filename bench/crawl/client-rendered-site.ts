// A client-rendered version of part of the Git documentation site (the crawl benchmark's JS-site row). Every page is
// served as a JavaScript shell: its <title>, an empty <div id="root"> and an inline script that inserts the page's
// original body, so the page's text and links exist only once a browser has run the script; optionally after a shared
// script bundle every page loads (`bundleKilobytes`). Pages are read in place from the benchmark data
// (GIT_DOCS_SITE_ROOT) and turned into shells once, before the server listens.
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { DomUtils, parseDocument } from 'htmlparser2';
import { GIT_DOCS_SITE_ROOT } from '@sift/testing';

/** Where the crawl starts, as on the static site. */
export const CLIENT_RENDERED_SEED = 'index.html';
/**
 * How many of the seed's links the site keeps at depth 1. With the depth-2 pages they link to, that makes 61 pages,
 * 60 of them allowed by robots.txt: a benchmark of a few tens of seconds with two pages rendering at a time.
 */
const SEED_LINKS_KEPT = 50;
// The static site's own rule, so both versions of the site answer the same about robots. No Sitemap line and no
// sitemap.xml: on this site a page is found only through links a browser has rendered.
const ROBOTS_TXT = 'User-agent: *\nDisallow: /technical/\n';
const ROBOTS_DISALLOWED_PREFIX = 'technical/';
// Only to resolve a page's relative links to site paths; never fetched.
const RESOLVING_ORIGIN = 'http://site.invalid/';

export interface ClientRenderedSite {
  /** `http://127.0.0.1:<port>` without a trailing slash. */
  origin: string;
  /** Pages the site serves, by depth from the seed (the depths of the static site: 1 / 50 / 10). */
  pagesByDepth: number[];
  /** Pages a crawler that obeys robots.txt can reach from the seed (every served page but the disallowed ones). */
  crawlablePages: number;
  /** Requests answered so far (pages, robots.txt and 404s): how many times a crawler came to the site. */
  requestsServed(): number;
  close(): Promise<void>;
}

type Document = ReturnType<typeof parseDocument>;

function readPage(file: string): Document {
  return parseDocument(readFileSync(join(GIT_DOCS_SITE_ROOT, file), 'utf8'));
}

/** The site path (no leading slash) an href points to on this site, or undefined for another site or a bad href. */
function sitePathOf(href: string, pageFile: string): string | undefined {
  try {
    const url = new URL(href, `${RESOLVING_ORIGIN}${pageFile}`);
    if (url.origin !== new URL(RESOLVING_ORIGIN).origin) return undefined;
    return decodeURIComponent(url.pathname.slice(1));
  } catch {
    return undefined;
  }
}

function anchorsOf(document: Document): ReturnType<typeof DomUtils.findAll> {
  return DomUtils.findAll((element) => element.name === 'a' && element.attribs.href !== undefined, document.children);
}

/** The HTML pages of the site one page links to, each once, in document order. */
function linkedPages(file: string, document: Document, htmlFiles: Set<string>): string[] {
  const pages = anchorsOf(document)
    .map((anchor) => sitePathOf(anchor.attribs.href, file))
    .filter((path): path is string => path !== undefined && htmlFiles.has(path));
  return [...new Set(pages)];
}

/**
 * The pages kept, by depth: the seed, the first SEED_LINKS_KEPT pages it links to, and the pages those link to that
 * the seed does not (the static site's depth-2 pages below them). A subset, so the row stays short on a small machine.
 */
function chooseSubset(documents: Map<string, Document>, htmlFiles: Set<string>): string[][] {
  const seedLinks = linkedPages(CLIENT_RENDERED_SEED, documentOf(documents, CLIENT_RENDERED_SEED), htmlFiles).filter((file) => file !== CLIENT_RENDERED_SEED);
  const depthOne = seedLinks.slice(0, SEED_LINKS_KEPT);
  const depthTwo = new Set<string>();
  for (const file of depthOne) {
    for (const linked of linkedPages(file, documentOf(documents, file), htmlFiles)) {
      if (linked !== CLIENT_RENDERED_SEED && !seedLinks.includes(linked)) depthTwo.add(linked);
    }
  }
  return [[CLIENT_RENDERED_SEED], depthOne, [...depthTwo]];
}

function documentOf(documents: Map<string, Document>, file: string): Document {
  let document = documents.get(file);
  if (!document) {
    document = readPage(file);
    documents.set(file, document);
  }
  return document;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** A string literal safe inside an inline <script>: no "</script>" or "<!--" can end or bend the script element. */
function scriptStringLiteral(text: string): string {
  return JSON.stringify(text).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

/**
 * The page as a shell. Links to pages outside the subset lose their href (their text stays), so every link a crawler
 * can follow leads to a served page. The head keeps only the title: the original one loads a web font from another
 * host, and nothing of the benchmark may leave loopback.
 */
function shellOf(file: string, document: Document, kept: Set<string>, withBundle: boolean): string {
  for (const anchor of anchorsOf(document)) {
    const path = sitePathOf(anchor.attribs.href, file);
    if (path !== undefined && !kept.has(path)) delete anchor.attribs.href;
  }
  const title = DomUtils.textContent(DomUtils.findOne((element) => element.name === 'title', document.children) ?? []);
  const body = DomUtils.findOne((element) => element.name === 'body', document.children);
  if (!body) throw new Error(`${file} has no body`);
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    `<head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>`,
    '<body>',
    '<div id="root"></div>',
    ...(withBundle ? [`<script src="/${BUNDLE_PATH}"></script>`] : []),
    `<script>document.getElementById('root').innerHTML = ${scriptStringLiteral(DomUtils.getInnerHTML(body))};</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

const BUNDLE_PATH = 'app.js';

/**
 * A site's script bundle of about `kilobytes` KB, as a client-rendered site loads on every page before its page
 * script: a few hundred small functions, each called once when it loads (a framework's start-up), served cacheable.
 */
function bundleOf(kilobytes: number): Buffer {
  const functions: string[] = [];
  for (let index = 0, length = 0; length < kilobytes * 1024; index += 1) {
    const fn = `m.f${index} = function (a) { var s = ${index}; for (var i = 0; i < 20; i++) { s = (s * 31 + a + i) % 1000003; } return s; };\n`;
    functions.push(fn);
    length += fn.length;
  }
  return Buffer.from(`(function () {\nvar m = {};\n${functions.join('')}var t = 0; for (var k in m) t = m[k](t);\nwindow.siteBundle = t;\n})();\n`, 'utf8');
}

export interface ClientRenderedSiteOptions {
  /** With a bundle of this many KB (`/app.js`, cacheable for an hour) loaded by every page; 0 or absent: none. */
  bundleKilobytes?: number;
}

/** Serves the client-rendered subset on 127.0.0.1 with a random port; `/` serves the seed like a static web server. */
export async function startClientRenderedSite(options: ClientRenderedSiteOptions = {}): Promise<ClientRenderedSite> {
  const bundle = options.bundleKilobytes ? bundleOf(options.bundleKilobytes) : undefined;
  const htmlFiles = new Set(htmlFilesOf(readFileSync(join(GIT_DOCS_SITE_ROOT, 'sitemap.xml'), 'utf8')));
  const documents = new Map<string, Document>();
  const subset = chooseSubset(documents, htmlFiles);
  const kept = new Set(subset.flat());
  const shells = new Map<string, Buffer>();
  for (const file of kept) shells.set(file, Buffer.from(shellOf(file, documentOf(documents, file), kept, bundle !== undefined), 'utf8'));

  let requests = 0;
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    requests += 1;
    const path = sitePathOf(request.url ?? '/', '') ?? '';
    if (path === 'robots.txt') return send(response, 200, 'text/plain; charset=utf-8', Buffer.from(ROBOTS_TXT));
    if (bundle && path === BUNDLE_PATH) return send(response, 200, 'text/javascript; charset=utf-8', bundle, { 'cache-control': 'public, max-age=3600' });
    const shell = shells.get(path === '' ? CLIENT_RENDERED_SEED : path);
    if (!shell) return send(response, 404, 'text/plain; charset=utf-8', Buffer.from('not found'));
    send(response, 200, 'text/html; charset=utf-8', shell);
  });
  // A crawler keeps connections alive; without this, close() would wait for their idle timeout.
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    pagesByDepth: subset.map((pages) => pages.length),
    crawlablePages: [...kept].filter((file) => !file.startsWith(ROBOTS_DISALLOWED_PREFIX)).length,
    requestsServed: () => requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/** The site's HTML pages, as paths: the sitemap lists every one (`http://127.0.0.1:8080/<path>`). */
function htmlFilesOf(sitemap: string): string[] {
  return [...sitemap.matchAll(/<loc>http:\/\/127\.0\.0\.1:8080\/([^<]+\.html)<\/loc>/g)].map((match) => match[1]);
}

function send(response: ServerResponse, status: number, contentType: string, body: Buffer, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': contentType, 'content-length': body.length, ...headers });
  response.end(body);
}
