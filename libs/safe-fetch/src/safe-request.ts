import type { Readable } from 'node:stream';
import { type Dispatcher, request } from 'undici';
import { readDecodedBody } from './body-reader';
import { decodeBody } from './charset-decoding';
import { contentKindOfMimeType, parseContentType } from './content-kind';
import type { EgressPolicy } from './egress-policy';
import { guardedAgentFor } from './guarded-agent-registry';
import { parsePublicUrl } from './public-url';
import { defaultMaxBytes, defaultUserAgent, flattenHeaders, toFetchError } from './safe-fetch';

export type SafeRequestMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface SafeRequestOptions {
  method: SafeRequestMethod;
  /** Sent as JSON (`content-type: application/json`); omitted when undefined. */
  body?: unknown;
  headers?: Record<string, string>;
  policy: EgressPolicy;
  /** Total time for the request, the response body included; not an idle timer. */
  deadlineMs: number;
  /** Cap on the decompressed response body; default 15 MB. */
  maxBytes?: number;
  signal?: AbortSignal;
}

export interface SafeResponse {
  url: string;
  status: number;
  headers: Record<string, string>;
  /** The body decoded with its declared charset (UTF-8 when none). */
  text: string;
  elapsedMs: number;
}

/** An operator API request under way: the response's head, and the deadline that still bounds reading its body. */
export interface OpenedRequest {
  target: string;
  response: Dispatcher.ResponseData;
  /** Aborted when the request's whole time is up. */
  deadline: AbortSignal;
  /** Stops the deadline's timer: call it once the body is read or abandoned. */
  finish(): void;
}

/**
 * Sends one operator API request under the egress policy, with the default headers (`accept` and
 * `accept-encoding` as given) overridden by the caller's, and starts the deadline of the whole exchange. The
 * caller reads the body and calls `finish`; an error before the response head has already finished it.
 */
export async function openSafeRequest(url: string, options: SafeRequestOptions, accept: { type: string; encoding: string }): Promise<OpenedRequest> {
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), options.deadlineMs);
  const signal = options.signal ? AbortSignal.any([deadline.signal, options.signal]) : deadline.signal;
  const headers: Record<string, string> = { 'user-agent': defaultUserAgent, 'accept-encoding': accept.encoding, accept: accept.type };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  for (const [name, value] of Object.entries(options.headers ?? {})) headers[name.toLowerCase()] = value;
  let target = url;
  try {
    target = parsePublicUrl(url).href;
    const response = await request(target, {
      method: options.method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal,
      dispatcher: guardedAgentFor(options.policy),
    });
    return { target, response, deadline: deadline.signal, finish: () => clearTimeout(timer) };
  } catch (error) {
    clearTimeout(timer);
    throw toFetchError(error, target, deadline.signal.aborted, options);
  }
}

/**
 * One request with a method and a JSON body (an API call to a server the operator configured, such as an LLM
 * or SearXNG) under the same connect-time egress checks, deadline and decompressed-size cap as `safeFetch`.
 * Redirects are never followed: re-sending a body to wherever a Location points is how a POST gets
 * smuggled elsewhere, so a 3xx comes back to the caller like any other status.
 */
export async function safeRequest(url: string, options: SafeRequestOptions): Promise<SafeResponse> {
  const startedAt = performance.now();
  const { target, response, deadline, finish } = await openSafeRequest(url, options, { type: 'application/json', encoding: 'gzip, deflate, br' });
  try {
    const responseHeaders = flattenHeaders(response.headers);
    const body = await readDecodedBody(
      response.body as Readable,
      responseHeaders['content-encoding'],
      options.maxBytes ?? defaultMaxBytes,
      target,
    );
    const { mimeType, charset } = parseContentType(responseHeaders['content-type']);
    const kind = contentKindOfMimeType(mimeType);
    // Only HTML and XML carry their charset inside the body; an API answer is decoded by its header or as UTF-8.
    const { text } = decodeBody(body, kind === 'html' || kind === 'xhtml' || kind === 'xml' ? kind : 'json', charset);
    return {
      url: target,
      status: response.statusCode,
      headers: responseHeaders,
      text,
      elapsedMs: Math.round(performance.now() - startedAt),
    };
  } catch (error) {
    throw toFetchError(error, target, deadline.aborted, options);
  } finally {
    finish();
  }
}
