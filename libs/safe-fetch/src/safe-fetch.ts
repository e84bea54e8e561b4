import { isIP } from 'node:net';
import type { Readable } from 'node:stream';
import { request, type Dispatcher } from 'undici';
import { decodeBody } from './charset-decoding';
import { allContentKinds, contentKindOfMimeType, parseContentType, sniffContentKind, type ContentKind } from './content-kind';
import { readDecodedBody } from './body-reader';
import type { EgressPolicy } from './egress-policy';
import { FetchError } from './fetch-error';
import { guardedAgentFor } from './guarded-agent-registry';
import { CONNECT_TIMEOUT_MS } from './guarded-connector';
import { gunzipXml, isGzipMimeType, startsWithGzipMagic } from './gzipped-xml';
import { parsePublicUrl } from './public-url';

export interface SafeFetchOptions {
  policy: EgressPolicy;
  /** Total time for the whole fetch, every redirect hop and the body included; not an idle timer. */
  deadlineMs: number;
  /** Cap on the decompressed body; default 15 MB. */
  maxBytes?: number;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Kinds the caller can use; anything else fails with `unsupported_content`. Default: all. */
  accept?: ContentKind[];
}

export interface FetchedResource {
  requestedUrl: string;
  finalUrl: string;
  status: number;
  headers: Record<string, string>;
  kind: ContentKind;
  mimeType: string;
  charset: string;
  body: Buffer;
  /** The body decoded with the detected charset; '' for PDF. */
  text: string;
  /** Every URL that answered with a redirect, in order. */
  redirects: string[];
  elapsedMs: number;
}

export const defaultMaxBytes = 15 * 1024 * 1024;
export const maxRedirects = 10;
export const defaultUserAgent = 'SiftBot/0.1 (+https://github.com/sift)';

const defaultHeaders: Record<string, string> = {
  'user-agent': defaultUserAgent,
  accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,application/json;q=0.8,text/plain;q=0.8,application/pdf;q=0.8,*/*;q=0.5',
  'accept-encoding': 'gzip, deflate, br',
  'accept-language': 'en-US,en;q=0.8',
};

// Credentials the caller meant for one origin must not follow a redirect to another.
const originBoundHeaders = ['authorization', 'cookie', 'proxy-authorization'];

export function flattenHeaders(headers: Dispatcher.ResponseData['headers']): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}

function mergeHeaders(custom: Record<string, string> | undefined): Record<string, string> {
  const merged = { ...defaultHeaders };
  for (const [name, value] of Object.entries(custom ?? {})) merged[name.toLowerCase()] = value;
  return merged;
}

/**
 * Fetches a caller-supplied URL under the egress policy: every hop's connection is checked, redirects are
 * followed (at most 10) and re-checked, the body is capped after decompression and decoded with the charset a
 * browser would pick. Answers of any final non-3xx status are returned, so callers can tell a 404 from a 403
 * challenge page; every other outcome is a `FetchError`.
 */
export async function safeFetch(url: string, options: SafeFetchOptions): Promise<FetchedResource> {
  const startedAt = performance.now();
  const maxBytes = options.maxBytes ?? defaultMaxBytes;
  const accept = options.accept ?? allContentKinds;
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), options.deadlineMs);
  const signal = options.signal ? AbortSignal.any([deadline.signal, options.signal]) : deadline.signal;
  let currentUrl = url;

  try {
    let target = parsePublicUrl(url);
    currentUrl = target.href;
    let headers = mergeHeaders(options.headers);
    const redirects: string[] = [];
    for (;;) {
      const response = await request(target, {
        method: 'GET',
        headers,
        signal,
        dispatcher: guardedAgentFor(options.policy),
      });
      if (response.statusCode >= 300 && response.statusCode < 400) {
        await response.body.dump();
        const location = response.headers.location;
        if (typeof location !== 'string' || location === '') {
          throw new FetchError('redirect_without_location', currentUrl, `${currentUrl} answered ${response.statusCode} without a Location to follow`);
        }
        redirects.push(currentUrl);
        if (redirects.length > maxRedirects) {
          throw new FetchError('too_many_redirects', url, `${url} redirected more than ${maxRedirects} times`);
        }
        let next: URL;
        try {
          next = new URL(location, target);
        } catch {
          throw new FetchError('invalid_url', currentUrl, `${currentUrl} redirected to an invalid URL "${location}"`);
        }
        next = parsePublicUrl(next.href);
        if (next.origin !== target.origin) {
          headers = Object.fromEntries(Object.entries(headers).filter(([name]) => !originBoundHeaders.includes(name)));
        }
        target = next;
        currentUrl = next.href;
        continue;
      }
      return await readResource(response, { url, currentUrl, redirects, maxBytes, accept, startedAt });
    }
  } catch (error) {
    throw toFetchError(error, currentUrl, deadline.signal.aborted, options);
  } finally {
    clearTimeout(timer);
  }
}

interface ReadContext {
  url: string;
  currentUrl: string;
  redirects: string[];
  maxBytes: number;
  accept: readonly ContentKind[];
  startedAt: number;
}

async function readResource(response: Dispatcher.ResponseData, context: ReadContext): Promise<FetchedResource> {
  const headers = flattenHeaders(response.headers);
  const { mimeType, charset: declaredCharset } = parseContentType(headers['content-type']);
  const declaredKind = contentKindOfMimeType(mimeType);
  const unsupported = (what: string) =>
    new FetchError('unsupported_content', context.currentUrl, `The resource is ${what}, which cannot be read as a web page or document`);
  const acceptsXml = context.accept.includes('xml');
  const declaredGzip = acceptsXml && isGzipMimeType(mimeType);
  // A declared binary type fails before its body is downloaded.
  if (!declaredGzip && (declaredKind === null || (declaredKind !== undefined && !context.accept.includes(declaredKind)))) {
    await response.body.dump();
    throw unsupported(mimeType);
  }
  let body = await readDecodedBody(response.body as Readable, headers['content-encoding'], context.maxBytes, context.currentUrl);
  let kind: ContentKind | null;
  if (declaredGzip || (acceptsXml && declaredKind === undefined && startsWithGzipMagic(body))) {
    // A .xml.gz sitemap: the file itself is gzip, not its transfer, so it is unpacked here under the same cap.
    body = await gunzipXml(body, context.maxBytes, context.currentUrl);
    kind = 'xml';
  } else {
    kind = declaredKind ?? sniffContentKind(body);
  }
  if (kind === null || !context.accept.includes(kind)) throw unsupported(mimeType === '' ? 'binary data' : `binary data (${mimeType})`);
  const { charset, text } = decodeBody(body, kind, declaredCharset);
  return {
    requestedUrl: context.url,
    finalUrl: context.currentUrl,
    status: response.statusCode,
    headers,
    kind,
    mimeType: mimeType === '' || declaredKind === undefined || declaredGzip ? mimeTypeOfKind(kind) : mimeType,
    charset,
    body,
    text,
    redirects: context.redirects,
    elapsedMs: Math.round(performance.now() - context.startedAt),
  };
}

function mimeTypeOfKind(kind: ContentKind): string {
  const mimeTypes: Record<ContentKind, string> = {
    html: 'text/html',
    xhtml: 'application/xhtml+xml',
    text: 'text/plain',
    json: 'application/json',
    pdf: 'application/pdf',
    xml: 'application/xml',
  };
  return mimeTypes[kind];
}

export function toFetchError(
  error: unknown,
  url: string,
  deadlineExpired: boolean,
  options: Pick<SafeFetchOptions, 'deadlineMs' | 'signal'>,
): FetchError {
  if (deadlineExpired) {
    return new FetchError('timeout', url, `Fetching ${url} took longer than ${options.deadlineMs} ms`, { cause: error });
  }
  if (error instanceof FetchError) return error;
  // undici wraps connector failures; the policy's refusal may sit one level down.
  const cause = error instanceof Error ? error.cause : undefined;
  if (cause instanceof FetchError) return cause;
  if (options.signal?.aborted) return new FetchError('network', url, `Fetching ${url} was cancelled`, { cause: error });
  return new FetchError('network', url, `Fetching ${url} failed: ${networkFailureDetail(error)}`, { cause: error });
}

const socketErrorDescriptions: Record<string, string> = {
  ECONNREFUSED: 'the connection was refused',
  ECONNRESET: 'the connection was reset',
  ETIMEDOUT: 'the connection timed out',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
  EPIPE: 'the connection was closed',
  UND_ERR_CONNECT_TIMEOUT: `the connection was not established within ${CONNECT_TIMEOUT_MS / 1000} s`,
};

/**
 * What went wrong, without the address the host resolved to: socket errors ("connect ECONNREFUSED 10.1.2.3:80")
 * name the peer, which would tell the caller where a name points. Known codes are described, any other message
 * has its IP addresses replaced.
 */
function networkFailureDetail(error: unknown): string {
  const code = error instanceof Error ? ((error as NodeJS.ErrnoException).code ?? (error.cause as NodeJS.ErrnoException | undefined)?.code) : undefined;
  if (code && socketErrorDescriptions[code]) return socketErrorDescriptions[code];
  return redactAddresses(error instanceof Error ? error.message : String(error));
}

/** IPv4 and IPv6 literals (with an optional port) replaced by "the host". */
export function redactAddresses(text: string): string {
  return text.replace(/\[?[0-9a-f:.]{3,}\]?/gi, (token) => {
    const bare = token.replace(/^\[|\]$/g, '');
    return isIP(bare) !== 0 || isIP(bare.replace(/:\d+$/, '')) !== 0 ? 'the host' : token;
  });
}
