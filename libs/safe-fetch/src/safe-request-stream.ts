import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { defaultMaxBytes, flattenHeaders, toFetchError } from './safe-fetch';
import { openSafeRequest, type SafeRequestOptions } from './safe-request';

export interface SafeStreamingResponse {
  url: string;
  status: number;
  headers: Record<string, string>;
  /** The body as UTF-8 text, piece by piece as it arrives; the deadline and size cap hold until it ends. */
  text: AsyncIterable<string>;
}

/**
 * `safeRequest` for a response read while it arrives (server-sent events from an LLM). Same egress checks, no
 * redirects, one deadline for the whole exchange; the body is asked for uncompressed, so each piece can be used
 * as soon as it comes.
 */
export async function safeRequestStream(url: string, options: SafeRequestOptions): Promise<SafeStreamingResponse> {
  const { target, response, deadline, finish } = await openSafeRequest(url, options, { type: 'text/event-stream', encoding: 'identity' });
  const failure = (error: unknown) => toFetchError(error, target, deadline.aborted, options);
  return {
    url: target,
    status: response.statusCode,
    headers: flattenHeaders(response.headers),
    text: decodedPieces(response.body as Readable, options.maxBytes ?? defaultMaxBytes, failure, finish),
  };
}

async function* decodedPieces(body: Readable, maxBytes: number, failure: (error: unknown) => Error, finish: () => void): AsyncIterable<string> {
  const decoder = new StringDecoder('utf8');
  let total = 0;
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      total += chunk.length;
      if (total > maxBytes) throw new Error(`the response passed ${maxBytes} bytes`);
      const text = decoder.write(chunk);
      if (text) yield text;
    }
    const rest = decoder.end();
    if (rest) yield rest;
  } catch (error) {
    throw failure(error);
  } finally {
    finish();
    body.destroy();
  }
}
