import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { benchDataDirectory } from './bench-data';

/** The third-party Git documentation site of the benchmark data, read in place (never copied into the repo). */
export const GIT_DOCS_SITE_ROOT = path.join(benchDataDirectory(), 'git-htmldocs-site', 'site');

/** The origin the benchmark's sitemap.xml and robots.txt were generated for. */
const GENERATED_ORIGIN = 'http://127.0.0.1:8080/';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

export interface GitDocsSiteOptions {
  /** Delay before each response, so a test can make a crawl outlast its deadline without sleeping itself. */
  responseDelayMs?: number;
}

export interface GitDocsSite {
  /** `http://127.0.0.1:<port>` without a trailing slash. */
  origin: string;
  /** Requests per path (query string excluded), including 404s. */
  hits: Map<string, number>;
  close(): Promise<void>;
}

/**
 * Serves the Git documentation fixture on 127.0.0.1 with a random port; sitemap.xml and robots.txt are
 * rewritten to point at this server's own origin, and `/` serves index.html like a static web server.
 */
export async function startGitDocsSite(options: GitDocsSiteOptions = {}): Promise<GitDocsSite> {
  const hits = new Map<string, number>();
  let origin = '';

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const requestPath = decodeRequestPath(request.url ?? '/');
    hits.set(requestPath, (hits.get(requestPath) ?? 0) + 1);
    const respond = (): void => {
      void serveFile(requestPath, origin, response);
    };
    if (options.responseDelayMs) setTimeout(respond, options.responseDelayMs);
    else respond();
  });
  // A crawler keeps connections alive; without this, close() would wait for their idle timeout.
  server.keepAliveTimeout = 1000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  origin = `http://127.0.0.1:${port}`;

  return {
    origin,
    hits,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

function decodeRequestPath(requestUrl: string): string {
  const pathname = new URL(requestUrl, 'http://fixture.invalid').pathname;
  try {
    return decodeURIComponent(pathname);
  } catch {
    return pathname;
  }
}

async function serveFile(requestPath: string, origin: string, response: ServerResponse): Promise<void> {
  const relativePath = requestPath.endsWith('/') ? `${requestPath}index.html` : requestPath;
  const filePath = path.resolve(GIT_DOCS_SITE_ROOT, `.${relativePath}`);
  // Path traversal out of the fixture directory is answered like a missing file.
  if (!filePath.startsWith(GIT_DOCS_SITE_ROOT + path.sep)) return sendNotFound(response);
  let content: Buffer;
  try {
    content = await readFile(filePath);
  } catch {
    return sendNotFound(response);
  }
  const extension = path.extname(filePath);
  const basename = path.basename(filePath);
  if (basename === 'sitemap.xml' || basename === 'robots.txt') {
    content = Buffer.from(content.toString('utf8').split(GENERATED_ORIGIN).join(`${origin}/`), 'utf8');
  }
  response.writeHead(200, {
    'content-type': CONTENT_TYPES[extension] ?? 'application/octet-stream',
    'content-length': content.length,
  });
  response.end(content);
}

function sendNotFound(response: ServerResponse): void {
  response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
  response.end('not found');
}
