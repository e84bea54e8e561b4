import { isAscii, isUtf8 } from 'node:buffer';
import { sniffHtmlEncoding } from './html-encoding-sniffer';
import iconv from 'iconv-lite';
import type { ContentKind } from './content-kind';

export interface DecodedText {
  charset: string;
  text: string;
}

// The Encoding Standard maps these labels to windows-1252, as every browser does.
const windows1252Labels = new Set(['ascii', 'us-ascii', 'iso-8859-1', 'iso8859-1', 'latin1', 'l1', 'cp1252', 'x-cp1252']);

function normaliseLabel(label: string | undefined): string | undefined {
  if (!label) return undefined;
  const lower = label.trim().toLowerCase();
  if (windows1252Labels.has(lower)) return 'windows-1252';
  return iconv.encodingExists(lower) ? lower : undefined;
}

function bomEncoding(body: Buffer): string | undefined {
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return 'utf-8';
  if (body[0] === 0xfe && body[1] === 0xff) return 'utf-16be';
  if (body[0] === 0xff && body[1] === 0xfe) return 'utf-16le';
  return undefined;
}

function xmlDeclarationEncoding(body: Buffer): string | undefined {
  const declaration = /^\s*<\?xml[^>]*?encoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(body.subarray(0, 256).toString('latin1'));
  return declaration ? declaration[1] : undefined;
}

/** Without any declaration, browsers guess; valid UTF-8 is by far the likeliest, windows-1252 the classic fallback. */
function fallbackEncoding(body: Buffer): string {
  return isUtf8(body) ? 'utf-8' : 'windows-1252';
}

/**
 * How far into a page a `<meta charset>` is looked for when none is in the first 1,024 bytes the standard prescan
 * reads. A browser still follows a later one: its tree builder changes the encoding and parses again when it meets
 * the element in the head (HTML's "change the encoding"). Archived copies (the Wayback Machine's banner scripts) and
 * heads full of inline scripts push the declaration past 1,024 bytes.
 */
const LATE_META_SCAN_BYTES = 64 * 1024;
const META_TAG = /<meta[\s/]/gi;

/**
 * The charset the first `<meta>` element of the head (up to LATE_META_SCAN_BYTES) declares, each element read by the
 * standard prescan started at it.
 */
function lateMetaCharset(body: Buffer): string | undefined {
  const scanned = body.subarray(0, LATE_META_SCAN_BYTES).toString('latin1');
  const bodyStart = scanned.search(/<body[\s>]/i);
  const head = bodyStart === -1 ? scanned : scanned.slice(0, bodyStart);
  // From the start: an element that straddles the 1,024th byte was cut short by the first prescan.
  META_TAG.lastIndex = 0;
  for (let match = META_TAG.exec(head); match; match = META_TAG.exec(head)) {
    // The sniffer's own prescan, started at this element: it reads `charset` and `http-equiv` + `content` alike.
    const encoding = sniffHtmlEncoding(body.subarray(match.index), { defaultEncoding: '' });
    if (encoding !== '') return encoding;
  }
  return undefined;
}

// Single-byte Latin encodings that pages claim while actually sending UTF-8, by the names the sniffer gives them: it
// reads every Latin-1 and ASCII label (latin1, iso-8859-1, us-ascii, ascii) as windows-1252, as the Encoding
// Standard does.
const SINGLE_BYTE_LATIN = new Set(['windows-1252', 'iso-8859-15']);

/**
 * An HTML page's charset as a browser picks it: BOM, then the Content-Type charset, then a `<meta charset>` prescan
 * (of the first 1,024 bytes, HTML standard §13.2.3.2, then of the rest of the head: lateMetaCharset), then valid
 * UTF-8 or windows-1252. A Latin label on bytes that are valid UTF-8 and not plain ASCII is taken for the mislabel it
 * is (Latin-1 text with accented letters is almost never valid UTF-8 by accident).
 */
function htmlCharset(body: Buffer, declaredCharset: string | undefined): string {
  const charset = (
    sniffHtmlEncoding(body, { transportLayerEncodingLabel: normaliseLabel(declaredCharset), defaultEncoding: '' }) ||
    lateMetaCharset(body) ||
    fallbackEncoding(body)
  ).toLowerCase();
  if (SINGLE_BYTE_LATIN.has(charset) && !isAscii(body) && isUtf8(body)) return 'utf-8';
  return charset;
}

function detectCharset(body: Buffer, kind: ContentKind, declaredCharset: string | undefined): string {
  if (kind === 'html') return htmlCharset(body, declaredCharset);
  const declared = bomEncoding(body) ?? normaliseLabel(declaredCharset);
  if (declared) return declared;
  if (kind === 'xhtml' || kind === 'xml') return normaliseLabel(xmlDeclarationEncoding(body)) ?? 'utf-8';
  if (kind === 'json') return 'utf-8';
  return fallbackEncoding(body);
}

/** Decodes a body to text as a browser would pick its encoding. PDFs are binary and decode to ''. */
export function decodeBody(body: Buffer, kind: ContentKind, declaredCharset: string | undefined): DecodedText {
  if (kind === 'pdf') return { charset: '', text: '' };
  const charset = detectCharset(body, kind, declaredCharset);
  const decodable = iconv.encodingExists(charset) ? charset : 'utf-8';
  return { charset: decodable, text: iconv.decode(body, decodable) };
}
