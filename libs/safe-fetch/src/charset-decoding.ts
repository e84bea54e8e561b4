import { isUtf8 } from 'node:buffer';
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

function detectCharset(body: Buffer, kind: ContentKind, declaredCharset: string | undefined): string {
  if (kind === 'html') {
    // BOM, then the Content-Type charset, then <meta charset> in the first 1024 bytes (HTML standard §13.2.3.2).
    return sniffHtmlEncoding(body, {
      transportLayerEncodingLabel: normaliseLabel(declaredCharset),
      defaultEncoding: fallbackEncoding(body),
    }).toLowerCase();
  }
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
