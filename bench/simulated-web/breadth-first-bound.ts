// The shortest crawl a breadth-first crawler can make of the pages a crawl fetched, under a per-host ceiling and a fixed
// latency: a page's links are known only once the page has answered, and pages are taken as the crawler takes them
// (lower depth first, then in the order their links were found). The ceiling over the latency ignores both; on a site
// whose hub pages are linked last, the breadth-first order leaves a final round trip of pages found late.
import { extractLinks } from '@sift/content-extraction';

export interface BreadthFirstSite {
  /** The path of the start page (depth 0). */
  startPath: string;
  /** The paths the crawl fetched and got a page for: the only ones modelled. */
  paths: ReadonlySet<string>;
  /** The page behind a path, as the host served it. */
  htmlOf(path: string): string | undefined;
  /** The origin the pages are served from, to resolve their links against. */
  origin: string;
  maxDepth: number;
}

export interface BreadthFirstBound {
  /** Pages the model reached from the start page (at most `paths.size`). */
  pages: number;
  /** From the request for the start page to the last page's answer, in seconds. */
  seconds: number;
}

/** The model's crawl: `ceiling` requests in flight whenever the frontier has pages, each answered after `latencyMs`. */
export function shortestBreadthFirstCrawl(site: BreadthFirstSite, latencyMs: number, ceiling: number): BreadthFirstBound {
  const found = new Set<string>([site.startPath]);
  // One queue per depth: the crawler's frontier takes the lowest depth first, then discovery order.
  const frontier: string[][] = Array.from({ length: site.maxDepth + 1 }, () => []);
  const inFlight: Array<{ path: string; depth: number; answeredAt: number }> = [{ path: site.startPath, depth: 0, answeredAt: latencyMs }];
  let pages = 0;
  let now = 0;
  for (;;) {
    // Every request takes the same time, so they answer in the order they were sent.
    const answered = inFlight.shift();
    if (!answered) break;
    now = answered.answeredAt;
    pages += 1;
    if (answered.depth < site.maxDepth) {
      for (const path of linkedPaths(site, answered.path)) {
        if (found.has(path)) continue;
        found.add(path);
        frontier[answered.depth + 1].push(path);
      }
    }
    while (inFlight.length < ceiling) {
      const depth = frontier.findIndex((queue) => queue.length > 0);
      if (depth < 0) break;
      inFlight.push({ path: frontier[depth].shift() as string, depth, answeredAt: now + latencyMs });
    }
  }
  return { pages, seconds: now / 1000 };
}

function linkedPaths(site: BreadthFirstSite, path: string): string[] {
  const html = site.htmlOf(path);
  if (html === undefined) return [];
  const paths: string[] = [];
  for (const link of extractLinks(html, `${site.origin}${path}`).links) {
    let url: URL;
    try {
      url = new URL(link.url);
    } catch {
      continue;
    }
    if (url.origin !== site.origin) continue;
    let linked = url.pathname;
    try {
      linked = decodeURIComponent(linked);
    } catch {
      // kept as written
    }
    if (site.paths.has(linked)) paths.push(linked);
  }
  return paths;
}
