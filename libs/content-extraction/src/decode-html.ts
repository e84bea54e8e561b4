import sniffHtmlEncoding from 'html-encoding-sniffer';
import iconv from 'iconv-lite';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
// Single-byte encodings that pages claim (or get by default) while actually sending UTF-8.
const SINGLE_BYTE_LATIN = new Set(['windows-1252', 'ISO-8859-1', 'ISO-8859-15', 'US-ASCII']);

/** The bytes as UTF-8, or null when they are not valid UTF-8. */
function asUtf8(buffer: Buffer): string | null {
  try {
    return strictUtf8.decode(buffer);
  } catch {
    return null;
  }
}

/**
 * Decodes fetched HTML bytes the way a browser would: byte-order mark, then the Content-Type charset, then a
 * `<meta charset>` prescan, then windows-1252 (the WHATWG fallback for unlabelled pages). A Latin-1 result is
 * checked first: bytes that are valid UTF-8 and not plain ASCII are UTF-8 (unlabelled or mislabelled pages are
 * mostly UTF-8 today, and Latin-1 text with accented letters is almost never valid UTF-8 by accident).
 */
export function decodeHtml(bytes: Uint8Array, contentType?: string): string {
  const label = contentType ? /charset\s*=\s*["']?([^"';\s]+)/i.exec(contentType)?.[1] : undefined;
  const encoding = sniffHtmlEncoding(bytes, { transportLayerEncodingLabel: label, defaultEncoding: 'windows-1252' });
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const name = iconv.encodingExists(encoding) ? encoding : 'windows-1252';
  if (SINGLE_BYTE_LATIN.has(name) && buffer.some((byte) => byte >= 0x80)) {
    const utf8 = asUtf8(buffer);
    if (utf8 !== null) return utf8;
  }
  return iconv.decode(buffer, name);
}
