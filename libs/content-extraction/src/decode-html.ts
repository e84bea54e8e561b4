import sniffHtmlEncoding from 'html-encoding-sniffer';
import iconv from 'iconv-lite';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
// Single-byte encodings that pages claim (or get by default) while actually sending UTF-8.
const SINGLE_BYTE_LATIN = new Set(['windows-1252', 'ISO-8859-1', 'ISO-8859-15', 'US-ASCII']);

/**
 * How far into a page a `<meta charset>` is looked for when none is in the first 1,024 bytes the standard prescan
 * reads. A browser still follows a later one: its tree builder changes the encoding and parses again when it meets
 * the element in the head (HTML's "change the encoding"). Archived copies (the Wayback Machine's banner scripts)
 * and heads full of inline scripts push the declaration past 1,024 bytes.
 */
const LATE_META_SCAN_BYTES = 64 * 1024;
const META_TAG = /<meta[\s/]/gi;

/**
 * The charset the first `<meta>` element of the head (up to LATE_META_SCAN_BYTES) declares, each element read by the
 * standard prescan started at it.
 */
function lateMetaCharset(bytes: Uint8Array): string | null {
  const scanned = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, LATE_META_SCAN_BYTES)).toString('latin1');
  const bodyStart = scanned.search(/<body[\s>]/i);
  const head = bodyStart === -1 ? scanned : scanned.slice(0, bodyStart);
  // From the start: an element that straddles the 1,024th byte was cut short by the first prescan.
  META_TAG.lastIndex = 0;
  for (let match = META_TAG.exec(head); match; match = META_TAG.exec(head)) {
    // The sniffer's own prescan, started at this element: it reads `charset` and `http-equiv` + `content` alike.
    const encoding = sniffHtmlEncoding(bytes.subarray(match.index), { defaultEncoding: '' });
    if (encoding !== '') return encoding;
  }
  return null;
}

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
 * `<meta charset>` prescan (of the first 1,024 bytes, then of the rest of the head: lateMetaCharset), then
 * windows-1252 (the WHATWG fallback for unlabelled pages). A Latin-1 result is
 * checked first: bytes that are valid UTF-8 and not plain ASCII are UTF-8 (unlabelled or mislabelled pages are
 * mostly UTF-8 today, and Latin-1 text with accented letters is almost never valid UTF-8 by accident).
 */
export function decodeHtml(bytes: Uint8Array, contentType?: string): string {
  const label = contentType ? /charset\s*=\s*["']?([^"';\s]+)/i.exec(contentType)?.[1] : undefined;
  const encoding =
    sniffHtmlEncoding(bytes, { transportLayerEncodingLabel: label, defaultEncoding: '' }) || lateMetaCharset(bytes) || 'windows-1252';
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const name = iconv.encodingExists(encoding) ? encoding : 'windows-1252';
  if (SINGLE_BYTE_LATIN.has(name) && buffer.some((byte) => byte >= 0x80)) {
    const utf8 = asUtf8(buffer);
    if (utf8 !== null) return utf8;
  }
  return iconv.decode(buffer, name);
}
