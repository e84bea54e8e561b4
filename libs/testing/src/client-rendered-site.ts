import { randomBytes } from 'node:crypto';
import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';

/**
 * How the site's pages reach the reader: `client` sends a shell (a title, an empty `<div id="root">` and an inline
 * script that builds the headings, text and links), as single-page applications do; `server` sends the same pages
 * as plain HTML, readable without running anything.
 */
export type SiteRendering = 'client' | 'server';

export interface ClientRenderedSiteOptions {
  rendering?: SiteRendering;
}

export interface DocsSitePage {
  url: string;
  title: string;
  /** A word found in this page's text and nowhere else on the site, new for every started site. */
  marker: string;
}

export interface ClientRenderedSite {
  /** The home page, `<origin>/<base>/`. */
  url: string;
  /** `http://127.0.0.1:<port>` without a trailing slash. */
  origin: string;
  /** Every content page, reachable from the home page by links: home → guide, reference; guide → deep (depth 2). */
  pages: { home: DocsSitePage; guide: DocsSitePage; reference: DocsSitePage; deep: DocsSitePage };
  /**
   * A bot-challenge interstitial linked from the home page: Cloudflare's "Just a moment..." page, answered 403 on the
   * client-rendered site and 200 on the plain one (as some sites serve it, so only its markup tells it from content).
   * `phrase` is text it shows and no content page has.
   */
  challenge: { url: string; phrase: string };
  /** Requests per path (query string excluded), 404s included. */
  hits: Map<string, number>;
  close(): Promise<void>;
}

type PageKey = 'home' | 'guide' | 'reference' | 'deep';

/** A run of text, or a link within it. */
type Segment = string | { to: string; text: string };

interface PageSource {
  key: PageKey;
  path: string;
  title: string;
  heading: string;
  sections: Array<{ heading: string; paragraphs: Segment[][] }>;
}

const CHALLENGE_PHRASE = 'needs to review the security of your connection before proceeding';

/**
 * A small documentation site on 127.0.0.1 and a random port, under a base path new for every start (so a page
 * stored by an earlier run is never taken for this run's), with a robots.txt that allows everything and no
 * sitemap: a crawler finds its pages only through their links, which in client rendering exist only once the
 * page's script has run.
 */
export async function startClientRenderedSite(options: ClientRenderedSiteOptions = {}): Promise<ClientRenderedSite> {
  const rendering = options.rendering ?? 'client';
  const nonce = randomBytes(3).toString('hex');
  const base = `/tidewater-${nonce}/`;
  const markers: Record<PageKey, string> = {
    home: `quillharbor${nonce}`,
    guide: `basaltorchid${nonce}`,
    reference: `lanternfjord${nonce}`,
    deep: `copperwombat${nonce}`,
  };
  const challengePath = `${base}challenge`;
  const sources = docsPages(base, markers, challengePath);
  const byPath = new Map(sources.map((source) => [source.path, source]));
  const hits = new Map<string, number>();

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const path = new URL(request.url ?? '/', 'http://fixture.invalid').pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const source = byPath.get(path);
    if (source) {
      send(response, 200, 'text/html; charset=utf-8', rendering === 'client' ? clientRenderedHtml(source) : serverRenderedHtml(source));
    } else if (path === challengePath) {
      // Cloudflare answers a managed challenge with 403 and this header, whatever the page underneath.
      send(response, rendering === 'client' ? 403 : 200, 'text/html; charset=UTF-8', challengeHtml(), { 'cf-mitigated': 'challenge', server: 'cloudflare', 'cache-control': 'no-store' });
    } else if (path === '/robots.txt') {
      send(response, 200, 'text/plain; charset=utf-8', 'User-agent: *\nAllow: /\n');
    } else {
      send(response, 404, 'text/plain; charset=utf-8', 'not found');
    }
  });
  // A crawler keeps connections alive; without this, close() would wait for their idle timeout.
  server.keepAliveTimeout = 1000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const pageOf = (key: PageKey): DocsSitePage => {
    const source = sources.find((candidate) => candidate.key === key)!;
    return { url: `${origin}${source.path}`, title: source.title, marker: markers[key] };
  };

  return {
    url: `${origin}${base}`,
    origin,
    pages: { home: pageOf('home'), guide: pageOf('guide'), reference: pageOf('reference'), deep: pageOf('deep') },
    challenge: { url: `${origin}${challengePath}`, phrase: CHALLENGE_PHRASE },
    hits,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/** What a page reads as when its result carries the page's marker word (see pagesFoundIn). */
export const PAGE_FOUND = 'has its marker';

/**
 * Each page of the site by URL, with what crawl results hold of it: PAGE_FOUND, 'not returned', or the start of a
 * text that lacks its marker, so a failed comparison shows which page went wrong and how.
 */
export function pagesFoundIn(site: ClientRenderedSite, results: Array<{ url: string; raw_content: string }>): Record<string, string> {
  return Object.fromEntries(
    Object.values(site.pages).map((page) => {
      const result = results.find((candidate) => candidate.url === page.url);
      if (!result) return [page.url, 'not returned'];
      return [page.url, result.raw_content.includes(page.marker) ? PAGE_FOUND : `no marker in ${JSON.stringify(result.raw_content.slice(0, 200))}`];
    }),
  );
}

function send(response: ServerResponse, status: number, contentType: string, body: string, headers: Record<string, string> = {}): void {
  const bytes = Buffer.from(body, 'utf8');
  response.writeHead(status, { 'content-type': contentType, 'content-length': bytes.length, ...headers });
  response.end(bytes);
}

/** The shell a single-page application sends: nothing to read and nothing to follow until the script runs. */
function clientRenderedHtml(source: PageSource): string {
  // Inside a script element only `</script` ends it; escaping every `<` keeps the data inert whatever its text.
  const data = JSON.stringify(source).replace(/</g, '\\u003c');
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(source.title)}</title></head>
<body>
<div id="root"></div>
<script>
(function () {
  var page = ${data};
  function element(tag, text) {
    var node = document.createElement(tag);
    if (text) node.textContent = text;
    return node;
  }
  var main = element('main');
  var article = element('article');
  article.appendChild(element('h1', page.heading));
  page.sections.forEach(function (section) {
    article.appendChild(element('h2', section.heading));
    section.paragraphs.forEach(function (segments) {
      var paragraph = element('p');
      segments.forEach(function (segment) {
        if (typeof segment === 'string') {
          paragraph.appendChild(document.createTextNode(segment));
        } else {
          var link = element('a', segment.text);
          link.setAttribute('href', segment.to);
          paragraph.appendChild(link);
        }
      });
      article.appendChild(paragraph);
    });
  });
  main.appendChild(article);
  document.getElementById('root').appendChild(main);
})();
</script>
</body>
</html>
`;
}

/** The same page as plain HTML; the one small script only marks that scripts run, as many static sites do. */
function serverRenderedHtml(source: PageSource): string {
  const paragraph = (segments: Segment[]) =>
    `<p>${segments.map((segment) => (typeof segment === 'string' ? escapeHtml(segment) : `<a href="${escapeHtml(segment.to)}">${escapeHtml(segment.text)}</a>`)).join('')}</p>`;
  const sections = source.sections.map((section) => `<h2>${escapeHtml(section.heading)}</h2>\n${section.paragraphs.map(paragraph).join('\n')}`).join('\n');
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${escapeHtml(source.title)}</title><script>document.documentElement.className = 'js';</script></head>
<body>
<main><article>
<h1>${escapeHtml(source.heading)}</h1>
${sections}
</article></main>
</body>
</html>
`;
}

/** Cloudflare's managed-challenge interstitial as a crawler without a browser gets it (trimmed, no outside requests). */
function challengeHtml(): string {
  return `<!DOCTYPE html><html lang="en-US"><head><title>Just a moment...</title><meta http-equiv="Content-Type" content="text/html; charset=UTF-8"><meta name="robots" content="noindex,nofollow"><meta name="viewport" content="width=device-width,initial-scale=1"></head>
<body class="no-js"><div class="main-wrapper" role="main"><div class="main-content"><h1 class="zone-name-title h1">127.0.0.1</h1><h2 id="challenge-running" class="h2">Verifying you are human. This may take a few seconds.</h2><noscript><div id="challenge-error-title"><div class="h2"><span id="challenge-error-text">Enable JavaScript and cookies to continue</span></div></div></noscript><div id="challenge-body-text" class="core-msg spacer">127.0.0.1 ${CHALLENGE_PHRASE}.</div></div></div>
<script>(function(){window._cf_chl_opt={cvId:'3',cZone:'127.0.0.1',cType:'managed',cRay:'8f1c2a3b4d5e6f70',cH:'tidewater',cUPMDTk:'/challenge?__cf_chl_tk=tidewater',cFPWv:'b',cITimeS:'1700000000'};}());</script>
<div class="footer" role="contentinfo"><div class="footer-inner"><div class="clearfix diagnostic-wrapper"><div class="ray-id">Ray ID: <code>8f1c2a3b4d5e6f70</code></div></div><div class="text-center" id="footer-text">Performance &amp; security by Cloudflare</div></div></div></body></html>
`;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** The site's four pages; each marker stands in running text, where a content extractor keeps it. */
function docsPages(base: string, markers: Record<PageKey, string>, challengePath: string | null): PageSource[] {
  const guide = `${base}guide`;
  const reference = `${base}reference`;
  const deep = `${base}guide/retention`;
  return [
    {
      key: 'home',
      path: base,
      title: 'Tidewater documentation',
      heading: 'Tidewater: ship logs without losing a line',
      sections: [
        {
          heading: 'What Tidewater does',
          paragraphs: [
            [
              `Tidewater tails log files on each host, batches their lines and ships them to a central store over a single compressed connection. Its codename in the release notes is ${markers.home}, after the quay where the first prototype ran.`,
            ],
            [
              'A shipper that falls behind keeps its position in a small journal, so a restart or a network outage never drops or repeats a line. Start with the ',
              { to: guide, text: 'getting-started guide' },
              ', or look up a setting in the ',
              { to: reference, text: 'configuration reference' },
              '.',
            ],
          ],
        },
        {
          heading: 'Support',
          paragraphs: [
            [
              'Hosted customers can open a ticket from the ',
              ...(challengePath ? [{ to: challengePath, text: 'support portal' }] : ['support portal']),
              '; everyone else is welcome on the mailing list, where the maintainers answer questions about deployments of any size.',
            ],
            [
              'Every release is supported for eighteen months. Security fixes are published for the two most recent releases, and the upgrade notes list each setting whose default changed, so an upgrade never changes behaviour unannounced.',
            ],
          ],
        },
      ],
    },
    {
      key: 'guide',
      path: guide,
      title: 'Getting started · Tidewater documentation',
      heading: 'Getting started with Tidewater',
      sections: [
        {
          heading: 'Install the shipper',
          paragraphs: [
            [
              `Install the shipper from your distribution's package, then write a configuration file naming the files to tail and the store to ship to. The sample configuration uses the host name ${markers.guide} for the store; replace it with your own.`,
            ],
            [
              'Run the shipper once in the foreground to see it connect, then enable its service so it starts on boot. It reads new lines within a second of their being written and sends them in batches of up to a megabyte.',
            ],
            [
              'If the store cannot be reached, the shipper keeps reading into its journal on local disk and sends the backlog, oldest lines first, as soon as the connection is back; the journal has a size cap you can set.',
            ],
          ],
        },
        {
          heading: 'Next steps',
          paragraphs: [
            [
              'Before going to production, decide how long the store keeps each stream: read ',
              { to: deep, text: 'retention and compaction' },
              ' for the trade-offs, and go back to the ',
              { to: base, text: 'overview' },
              ' for the architecture.',
            ],
          ],
        },
      ],
    },
    {
      key: 'reference',
      path: reference,
      title: 'Configuration reference · Tidewater documentation',
      heading: 'Configuration reference',
      sections: [
        {
          heading: 'Inputs',
          paragraphs: [
            [
              `Each input names a glob of files to tail, the encoding of their lines and an optional multiline pattern that joins stack traces into one event. The example input in this reference is called ${markers.reference}.`,
            ],
            [
              'Inputs are read in parallel, one reader per file; a file that is rotated away is read to its end before the reader moves on to the new file of the same name.',
            ],
            [
              'Every setting can also be given as an environment variable: upper-case the key, replace dots with underscores and prefix it with the name of the shipper. Environment variables win over the file.',
            ],
          ],
        },
        {
          heading: 'Outputs',
          paragraphs: [
            [
              'An output names the store, the credentials to present and the size of the batches to send. Unknown keys are rejected when the shipper starts, so a typo fails at once instead of being ignored. See the ',
              { to: base, text: 'overview' },
              ' for how the parts fit together.',
            ],
          ],
        },
      ],
    },
    {
      key: 'deep',
      path: deep,
      title: 'Retention and compaction · Tidewater documentation',
      heading: 'Retention and compaction',
      sections: [
        {
          heading: 'How long lines are kept',
          paragraphs: [
            [
              `The store keeps every stream for thirty days by default. A stream with a retention policy keeps fewer days, or only the lines that match a filter; the policy in the worked example is named ${markers.deep}.`,
            ],
            [
              'Compaction runs every night and merges small segments into large ones, which makes searches over old lines faster and frees the space of expired segments. It never rewrites the segments of the current day.',
            ],
            [
              'Deleting a stream removes its segments at the next compaction. Until then its lines no longer show in searches, and the space they take is counted against the stream that held them, not against the store as a whole.',
            ],
          ],
        },
        {
          heading: 'Back to the guide',
          paragraphs: [['This page belongs to the ', { to: guide, text: 'getting-started guide' }, ', which explains how to install and run the shipper.']],
        },
      ],
    },
  ];
}
