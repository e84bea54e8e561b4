import { Readable } from 'node:stream';
import { readDecodedBody } from './body-reader';
import { FetchError } from './fetch-error';

const gzipMimeTypes = new Set(['application/gzip', 'application/x-gzip', 'application/gzip-compressed', 'application/x-gunzip']);

/** Sitemaps are commonly published as `.xml.gz` files, declared as a gzip archive rather than as XML. */
export function isGzipMimeType(mimeType: string): boolean {
  return gzipMimeTypes.has(mimeType);
}

/** RFC 1952 member header: ID1 ID2 and CM=8 (deflate). */
export function startsWithGzipMagic(body: Buffer): boolean {
  return body.length >= 3 && body[0] === 0x1f && body[1] === 0x8b && body[2] === 0x08;
}

/**
 * Unpacks a gzip file whose content must be XML, under the same decompressed-size cap as any body, so a
 * `.xml.gz` bomb fails after `maxBytes` of output. Anything but markup inside (a tarball, an image) is refused.
 */
export async function gunzipXml(body: Buffer, maxBytes: number, url: string): Promise<Buffer> {
  const unpacked = await readDecodedBody(Readable.from([body]), 'gzip', maxBytes, url);
  const head = unpacked.subarray(0, 512);
  const withoutBom = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? head.subarray(3) : head;
  if (withoutBom.includes(0) || !/^\s*</.test(withoutBom.toString('latin1'))) {
    throw new FetchError('unsupported_content', url, 'The resource is a gzip file that does not contain XML');
  }
  return unpacked;
}
