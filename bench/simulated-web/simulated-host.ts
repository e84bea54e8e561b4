// One host of the simulated web: the Git documentation site (the benchmark data, read in place) served on its own
// loopback port, each response held back for the page's latency, some pages never answering, and optionally a rate
// limit that answers 429 with Retry-After once the host is asked more than N times a second, or a slowdown: every
// answer later than the pages' own latency once the host has served N pages.
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, resolve, sep } from 'node:path';
import { GIT_DOCS_SITE_ROOT } from '@sift/testing';
import type { PageFate, RateLimit } from './latency-profile';

/** The origin the benchmark data's sitemap.xml and robots.txt were written for. */
const GENERATED_ORIGIN = 'http://127.0.0.1:8080/';
const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

export interface HostRateLimit extends RateLimit {
  /** The limit starts once this many pages were answered 200 (0: from the first request). */
  afterPages: number;
}

/** The host slows down: once it has answered `afterPages` pages 200, every request it gets answers after `ms`. */
export interface HostSlowdown {
  afterPages: number;
  ms: number;
}

export interface SimulatedHostOptions {
  /** The latency (or hang) of a path, query string excluded. */
  fate(path: string): PageFate;
  rateLimit?: HostRateLimit;
  slowdown?: HostSlowdown;
}

/** One response the host sent, by the time it was sent (performance.now()). */
export interface ServedResponse {
  at: number;
  path: string;
  status: number;
}

/** Requests the host held at once, from its first request to its last answer. */
export interface HostConcurrency {
  peak: number;
  /** Time-weighted mean of the requests in flight. */
  mean: number;
  /** The most in flight in each half second from the first request on. */
  perWindow: number[];
  /** The time-weighted mean in flight in each half second from the first request on. */
  meanPerWindow: number[];
  /** Milliseconds from the host's first request to its last answer. */
  spanMs: number;
}

export interface SimulatedHost {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  served: ServedResponse[];
  /** Requests in flight after each change, by the time of the change (performance.now()). */
  timeline(): ReadonlyArray<{ at: number; active: number }>;
  concurrency(): HostConcurrency;
  /** Requests held open without an answer (hanging pages). */
  hung(): number;
  /** Requests of answering pages not answered yet. */
  pending(): number;
  /** performance.now() when the rate limit started answering 429, if it has. */
  rateLimitedSince(): number | undefined;
  /** performance.now() when the slowdown started (its first slow request), if it has. */
  slowSince(): number | undefined;
  /** The time-weighted mean of the requests in flight in each `windowMs` from `from` (performance.now()) on. */
  meanInFlightFrom(from: number, windowMs: number): number[];
  close(): Promise<void>;
}

/** Requests admitted in the last second, to answer 429 above the limit. */
class SlidingWindow {
  private readonly times: number[] = [];

  constructor(private readonly perSecond: number) {}

  admit(now: number): boolean {
    while (this.times.length > 0 && now - this.times[0] >= 1000) this.times.shift();
    if (this.times.length >= this.perSecond) return false;
    this.times.push(now);
    return true;
  }
}

export async function startSimulatedHost(options: SimulatedHostOptions): Promise<SimulatedHost> {
  const served: ServedResponse[] = [];
  const files = new Map<string, Promise<Buffer | undefined>>();
  const window = options.rateLimit ? new SlidingWindow(options.rateLimit.requestsPerSecond) : undefined;
  let pagesAnswered = 0;
  let limitingSince: number | undefined;
  let slowingSince: number | undefined;
  let hanging = 0;
  let origin = '';
  const inFlight = { active: 0, peak: 0, weighted: 0, since: 0, first: 0, last: 0 };
  const timeline: Array<{ at: number; active: number }> = [];
  const change = (by: number): void => {
    const now = performance.now();
    if (inFlight.first === 0) inFlight.first = now;
    inFlight.weighted += inFlight.active * (now - (inFlight.since || now));
    inFlight.since = now;
    inFlight.last = now;
    inFlight.active += by;
    inFlight.peak = Math.max(inFlight.peak, inFlight.active);
    timeline.push({ at: now, active: inFlight.active });
  };

  const send = (response: ServerResponse, path: string, status: number, headers: Record<string, string | number>, body: Buffer | string): void => {
    response.writeHead(status, headers).end(body);
    served.push({ at: performance.now(), path, status });
  };

  const answer = async (path: string, response: ServerResponse, reading: Promise<Buffer | undefined>): Promise<void> => {
    const content = await reading;
    if (response.destroyed) return;
    if (!content) return send(response, path, 404, { 'content-type': 'text/plain; charset=utf-8' }, 'not found');
    pagesAnswered += 1;
    send(response, path, 200, { 'content-type': CONTENT_TYPES[extname(filePathOf(path))] ?? 'application/octet-stream', 'content-length': content.length }, content);
  };

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const path = requestPath(request.url ?? '/');
    change(1);
    // Once per request: after its answer, or when the client gave up on it.
    response.once('close', () => change(-1));
    const limit = options.rateLimit;
    if (limit && window && pagesAnswered >= limit.afterPages) {
      limitingSince ??= performance.now();
      if (!window.admit(performance.now())) {
        return send(response, path, 429, { 'retry-after': limit.retryAfterSeconds, 'content-type': 'text/plain; charset=utf-8' }, 'too many requests');
      }
    }
    const slowdown = options.slowdown && pagesAnswered >= options.slowdown.afterPages ? options.slowdown : undefined;
    if (slowdown) slowingSince ??= performance.now();
    const fate = slowdown ? { kind: 'answers' as const, ms: slowdown.ms } : options.fate(path);
    if (fate.kind === 'hangs') {
      // Never answered: the client gives up and closes the connection.
      hanging += 1;
      response.once('close', () => (hanging -= 1));
      return;
    }
    // The file is read while the latency runs, so the page answers at its latency, not its latency plus a disk read.
    const reading = fileOf(files, path, origin);
    setTimeout(() => void answer(path, response, reading), fate.ms);
  });
  // Clients keep connections alive, as a crawler does; close() ends them at once.
  server.keepAliveTimeout = 5000;
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => done());
  });
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    served,
    timeline: () => timeline,
    concurrency: () => ({ peak: inFlight.peak, mean: inFlight.last > inFlight.first ? inFlight.weighted / (inFlight.last - inFlight.first) : 0, perWindow: peaksPer(timeline, 500), meanPerWindow: meansPer(timeline, 500), spanMs: inFlight.last - inFlight.first }),
    hung: () => hanging,
    pending: () => inFlight.active - hanging,
    rateLimitedSince: () => limitingSince,
    slowSince: () => slowingSince,
    meanInFlightFrom: (from, windowMs) => {
      // The count in flight at `from`, then every change after it.
      const before = timeline.findLast((point) => point.at <= from);
      return meansPer([{ at: from, active: before?.active ?? 0 }, ...timeline.filter((point) => point.at > from)], windowMs);
    },
    close: () =>
      new Promise<void>((done, fail) => {
        server.close((error) => (error ? fail(error) : done()));
        server.closeAllConnections();
      }),
  };
}

function requestPath(requestUrl: string): string {
  const pathname = new URL(requestUrl, 'http://simulated.invalid').pathname;
  try {
    return decodeURIComponent(pathname);
  } catch {
    return pathname;
  }
}

/** The file of the site behind a request path. */
export function filePathOf(path: string): string {
  return resolve(GIT_DOCS_SITE_ROOT, `.${path.endsWith('/') ? `${path}index.html` : path}`);
}

/** The file behind a path, read once per host (the sitemap and robots.txt name this host's origin); undefined: 404. */
function fileOf(files: Map<string, Promise<Buffer | undefined>>, path: string, origin: string): Promise<Buffer | undefined> {
  const filePath = filePathOf(path);
  let content = files.get(filePath);
  if (!content) {
    content = (async () => {
      // A path that leaves the site's folder is answered like a missing file.
      if (!filePath.startsWith(GIT_DOCS_SITE_ROOT + sep)) return undefined;
      try {
        const bytes = await readFile(filePath);
        return /(^|\/)(sitemap\.xml|robots\.txt)$/.test(filePath) ? Buffer.from(bytes.toString('utf8').split(GENERATED_ORIGIN).join(`${origin}/`)) : bytes;
      } catch {
        return undefined;
      }
    })();
    files.set(filePath, content);
  }
  return content;
}

/** The time-weighted mean of the requests in flight in each `windowMs` from the first request on (the last window as far as it went). */
function meansPer(timeline: ReadonlyArray<{ at: number; active: number }>, windowMs: number): number[] {
  if (timeline.length < 2) return [];
  const start = timeline[0].at;
  const end = timeline[timeline.length - 1].at;
  const weighted: number[] = new Array(Math.floor((end - start) / windowMs) + 1).fill(0);
  for (let i = 0; i + 1 < timeline.length; i++) {
    // The count timeline[i].active holds from timeline[i].at until the next change, spread over the windows it spans.
    let from = timeline[i].at - start;
    const to = timeline[i + 1].at - start;
    while (from < to) {
      const window = Math.floor(from / windowMs);
      const windowEnd = Math.min(to, (window + 1) * windowMs);
      weighted[window] += timeline[i].active * (windowEnd - from);
      from = windowEnd;
    }
  }
  const lastWindowMs = end - start - (weighted.length - 1) * windowMs;
  return weighted.map((sum, window) => sum / (window === weighted.length - 1 ? Math.max(lastWindowMs, 1) : windowMs));
}

/** The most requests in flight in each `windowMs` from the first request on: how the crawl ramped up and drained. */
function peaksPer(timeline: ReadonlyArray<{ at: number; active: number }>, windowMs: number): number[] {
  if (timeline.length === 0) return [];
  const peaks: number[] = [];
  for (const { at, active } of timeline) {
    const window = Math.floor((at - timeline[0].at) / windowMs);
    while (peaks.length <= window) peaks.push(peaks.length === 0 ? 0 : (timeline.findLast((point) => point.at - timeline[0].at < peaks.length * windowMs)?.active ?? 0));
    peaks[window] = Math.max(peaks[window], active);
  }
  return peaks;
}
