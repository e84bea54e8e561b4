import { type BreadthFirstSite, shortestBreadthFirstCrawl } from './breadth-first-bound';

const ORIGIN = 'http://127.0.0.1:8080';

/** A site of pages linking to the given paths, every page fetched. */
function siteOf(pages: Record<string, string[]>, maxDepth = 2): BreadthFirstSite {
  return {
    startPath: '/index.html',
    paths: new Set(Object.keys(pages)),
    htmlOf: (path) => `<html><body>${(pages[path] ?? []).map((target) => `<a href="${target}">${target}</a>`).join(' ')}</body></html>`,
    origin: ORIGIN,
    maxDepth,
  };
}

describe('the shortest breadth-first crawl', () => {
  it('sends the ceiling at once and learns links only from answered pages', () => {
    // 100 ms a page, 2 at a time: the start page (100), a and b (200), c with d, which a linked (300).
    const site = siteOf({ '/index.html': ['/a.html', '/b.html', '/c.html'], '/a.html': ['/d.html'], '/b.html': [], '/c.html': [], '/d.html': [] });
    expect(shortestBreadthFirstCrawl(site, 100, 2)).toEqual({ pages: 5, seconds: 0.3 });
  });

  it('pays a round trip more when the page holding the next level is linked last', () => {
    const first = { '/index.html': ['/hub.html', '/a.html', '/b.html', '/c.html'], '/hub.html': ['/x.html', '/y.html'] };
    const last = { '/index.html': ['/a.html', '/b.html', '/c.html', '/hub.html'], '/hub.html': ['/x.html', '/y.html'] };
    const leaves = { '/a.html': [], '/b.html': [], '/c.html': [], '/x.html': [], '/y.html': [] };
    // Three at a time, 100 ms a page. Hub first: the start page (100), hub, a and b (200), c, x and y (300). Hub
    // last: a, b and c (200), the hub alone (300), x and y (400).
    expect(shortestBreadthFirstCrawl(siteOf({ ...first, ...leaves }), 100, 3).seconds).toBe(0.3);
    expect(shortestBreadthFirstCrawl(siteOf({ ...last, ...leaves }), 100, 3).seconds).toBe(0.4);
  });

  it('follows no link past the last level and models only the pages the crawl fetched', () => {
    const site = siteOf({ '/index.html': ['/a.html', '/gone.html'], '/a.html': ['/b.html'], '/b.html': [] }, 1);
    const fetched = { ...site, paths: new Set(['/index.html', '/a.html', '/b.html']) };
    expect(shortestBreadthFirstCrawl(fetched, 100, 4)).toEqual({ pages: 2, seconds: 0.2 });
  });
});
