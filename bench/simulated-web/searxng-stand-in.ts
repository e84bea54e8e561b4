// A SearXNG instance for the simulated web, speaking its JSON wire format (`GET /search?q=…&format=json`): each query
// is answered after the profile's upstream latency with the site's pages that best match it (BM25 over each page's
// title and text), each on the simulated host that serves it.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { DomUtils, parseDocument } from 'htmlparser2';
import { Bm25Index, tokenize } from '@sift/ranking';
import { type FixtureServer, startFixtureServer } from '@sift/safe-fetch';
import { GIT_DOCS_SITE_ROOT } from '@sift/testing';

/** A page of the site as the stand-in's engine indexed it. */
export interface IndexedPage {
  /** Path on the site, e.g. `/git-commit.html`. */
  path: string;
  title: string;
  text: string;
}

/** One query the stand-in answered. */
export interface UpstreamCall {
  query: string;
  /** Its answer was held back this long: the floor of any search that waits for it. */
  delayMs: number;
  results: Array<{ url: string; content: string }>;
}

export interface SearxngStandInOptions {
  /** How long the answer to `query` takes. */
  delayOf(query: string): number;
  /** The origin that serves a page path. */
  originOf(path: string): string;
  resultsPerQuery: number;
}

export interface SearxngStandIn {
  url: string;
  pages: IndexedPage[];
  calls: UpstreamCall[];
  /**
   * Appended to every result URL (`?visit=<token>`) until set again: each search gets URLs no earlier request stored,
   * while the page behind them (and its latency, drawn by path) stays the same.
   */
  setVisit(token: string): void;
  close(): Promise<void>;
}

/** Snippet length, about what a search engine shows under a result. */
const SNIPPET_CHARACTERS = 240;
/** A page's title counts this many times over its text, as engines weigh titles. */
const TITLE_WEIGHT = 3;

/** The site's HTML pages (every folder), with their titles and visible text. */
export function indexSitePages(root = GIT_DOCS_SITE_ROOT): IndexedPage[] {
  const files = readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.html'))
    .sort();
  return files.map((name) => {
    const document = parseDocument(readFileSync(join(root, name), 'utf8'));
    const title = DomUtils.textContent(DomUtils.getElementsByTagName('title', document, true, 1)).trim();
    const body = DomUtils.getElementsByTagName('body', document, true, 1)[0] ?? document;
    for (const hidden of DomUtils.getElementsByTagName((tag) => tag === 'script' || tag === 'style', body, true)) DomUtils.removeElement(hidden);
    const text = DomUtils.textContent(body).replace(/\s+/g, ' ').trim();
    return { path: `/${relative(root, join(root, name)).split('\\').join('/')}`, title, text };
  });
}

/** The stretch of the page's text around the first query word it holds, as an engine's snippet. */
function snippetOf(page: IndexedPage, queryTokens: string[]): string {
  const lower = page.text.toLowerCase();
  const positions = queryTokens.map((token) => lower.indexOf(token)).filter((position) => position >= 0);
  const start = positions.length > 0 ? Math.max(0, Math.min(...positions) - 60) : 0;
  const from = start === 0 ? 0 : page.text.indexOf(' ', start) + 1;
  return page.text.slice(from, from + SNIPPET_CHARACTERS).trim();
}

export async function startSearxngStandIn(options: SearxngStandInOptions): Promise<SearxngStandIn> {
  const pages = indexSitePages();
  const index = new Bm25Index(pages.map((page) => [...Array.from({ length: TITLE_WEIGHT }, () => tokenize(page.title)).flat(), ...tokenize(page.text)]));
  const calls: UpstreamCall[] = [];
  let visit = '';
  const server: FixtureServer = await startFixtureServer({
    '/search': (request, response) => {
      const query = new URL(request.url ?? '/', 'http://searxng').searchParams.get('q') ?? '';
      const queryTokens = [...new Set(tokenize(query))];
      const results = index
        .search(queryTokens, options.resultsPerQuery)
        .filter((hit) => hit.score > 0)
        .map((hit) => {
          const page = pages[hit.index];
          const url = `${options.originOf(page.path)}${page.path}${visit ? `?visit=${encodeURIComponent(visit)}` : ''}`;
          return { url, title: page.title, content: snippetOf(page, queryTokens), engine: 'simulated', engines: ['simulated'], score: hit.score, category: 'general', publishedDate: null };
        });
      const delayMs = options.delayOf(query);
      calls.push({ query, delayMs, results: results.map(({ url, content }) => ({ url, content })) });
      const body = JSON.stringify({ query, number_of_results: results.length, results, answers: [], corrections: [], infoboxes: [], suggestions: [], unresponsive_engines: [] });
      setTimeout(() => response.writeHead(200, { 'content-type': 'application/json' }).end(body), delayMs);
    },
  });
  return {
    url: server.url,
    pages,
    calls,
    setVisit: (token) => (visit = token),
    close: () => server.close(),
  };
}
