import sniffHtmlEncoding from 'html-encoding-sniffer';
import iconv from 'iconv-lite';

/**
 * Decodes fetched HTML bytes the way a browser would: byte-order mark, then the Content-Type charset, then a
 * `<meta charset>` prescan, then windows-1252 (the WHATWG fallback for unlabelled pages).
 */
export function decodeHtml(bytes: Uint8Array, contentType?: string): string {
  const label = contentType ? /charset\s*=\s*["']?([^"';\s]+)/i.exec(contentType)?.[1] : undefined;
  const encoding = sniffHtmlEncoding(bytes, { transportLayerEncodingLabel: label, defaultEncoding: 'windows-1252' });
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const name = iconv.encodingExists(encoding) ? encoding : 'windows-1252';
  return iconv.decode(buffer, name);
}
