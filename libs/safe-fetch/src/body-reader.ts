import { pipeline, Transform, type Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate, createInflateRaw } from 'node:zlib';
import { FetchError } from './fetch-error';

/** zlib-wrapped deflate starts with a CMF byte of 0x?8 and a header checksum; some servers send raw deflate instead. */
function isZlibHeader(first: number, second: number): boolean {
  return (first & 0x0f) === 8 && ((first << 8) | second) % 31 === 0;
}

/** "deflate" is ambiguous on the wire, so the first bytes decide between zlib and raw inflate. */
function createDeflateDecoder(): Transform {
  let inner: Transform | undefined;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      if (!inner) {
        inner = chunk.length >= 2 && isZlibHeader(chunk[0], chunk[1]) ? createInflate() : createInflateRaw();
        inner.on('data', (data: Buffer) => this.push(data));
        inner.on('error', (error) => this.destroy(error));
      }
      inner.write(chunk, () => callback());
    },
    flush(callback) {
      if (!inner) return callback();
      inner.once('end', () => callback());
      inner.end();
    },
    destroy(error, callback) {
      inner?.destroy();
      callback(error);
    },
  });
}

function decoderFor(encoding: string): Transform | null {
  switch (encoding) {
    case 'gzip':
    case 'x-gzip':
      return createGunzip();
    case 'deflate':
      return createDeflateDecoder();
    case 'br':
      return createBrotliDecompress();
    default:
      return null;
  }
}

class BodyTooLargeError extends Error {}

/**
 * Reads a response body, undoing its Content-Encoding while it streams, and stops as soon as the
 * decompressed size passes `maxBytes`: a gzip bomb fails after `maxBytes` of output, long before it expands.
 */
export async function readDecodedBody(body: Readable, contentEncoding: string | undefined, maxBytes: number, url: string): Promise<Buffer> {
  // Encodings are listed in the order they were applied, so they are undone from last to first.
  const encodings = (contentEncoding ?? '')
    .split(',')
    .map((encoding) => encoding.trim().toLowerCase())
    .filter((encoding) => encoding !== '' && encoding !== 'identity')
    .reverse();
  const decoders: Transform[] = [];
  for (const encoding of encodings) {
    const decoder = decoderFor(encoding);
    if (!decoder) {
      body.destroy();
      throw new FetchError('unsupported_content', url, `The response uses the unsupported content encoding "${encoding}"`);
    }
    decoders.push(decoder);
  }

  const chunks: Buffer[] = [];
  let total = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      total += chunk.length;
      if (total > maxBytes) return callback(new BodyTooLargeError());
      chunks.push(chunk);
      callback();
    },
  });

  await new Promise<void>((resolve, reject) => {
    pipeline([body, ...decoders, counter], (error) => {
      if (!error) return resolve();
      if (error instanceof BodyTooLargeError) {
        reject(new FetchError('too_large', url, `The resource is larger than the ${maxBytes}-byte limit`));
      } else if (decoders.length > 0 && 'errno' in error && typeof (error as NodeJS.ErrnoException).code === 'string' && (error as NodeJS.ErrnoException).code?.startsWith('Z_')) {
        reject(new FetchError('network', url, 'The response body is corrupt and could not be decompressed', { cause: error }));
      } else {
        reject(error);
      }
    });
    counter.resume();
  });
  return Buffer.concat(chunks);
}
