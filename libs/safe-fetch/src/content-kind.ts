/** What a fetched resource is, as far as its consumers care. `xml` serves sitemaps and feeds. */
export type ContentKind = 'html' | 'xhtml' | 'text' | 'json' | 'pdf' | 'xml';

export const allContentKinds: readonly ContentKind[] = ['html', 'xhtml', 'text', 'json', 'pdf', 'xml'];

export interface ContentType {
  mimeType: string;
  charset: string | undefined;
}

export function parseContentType(header: string | undefined): ContentType {
  if (!header) return { mimeType: '', charset: undefined };
  const [essence, ...parameters] = header.split(';');
  let charset: string | undefined;
  for (const parameter of parameters) {
    const separator = parameter.indexOf('=');
    if (separator === -1) continue;
    if (parameter.slice(0, separator).trim().toLowerCase() === 'charset') {
      charset = parameter.slice(separator + 1).trim().replace(/^"(.*)"$/, '$1') || undefined;
    }
  }
  return { mimeType: essence.trim().toLowerCase(), charset };
}

/**
 * The kind a declared MIME type stands for; `undefined` when the type says nothing useful
 * (absent or application/octet-stream) and the body must be sniffed.
 * `null` for a type this service does not read (images, archives, video, ...).
 */
export function contentKindOfMimeType(mimeType: string): ContentKind | null | undefined {
  if (mimeType === '' || mimeType === 'application/octet-stream' || mimeType === 'binary/octet-stream') return undefined;
  if (mimeType === 'text/html') return 'html';
  if (mimeType === 'application/xhtml+xml') return 'xhtml';
  if (mimeType === 'text/plain' || mimeType === 'text/markdown' || mimeType === 'text/x-markdown') return 'text';
  if (mimeType === 'application/json' || mimeType === 'text/json' || mimeType.endsWith('+json')) return 'json';
  if (mimeType === 'application/pdf' || mimeType === 'application/x-pdf') return 'pdf';
  if (mimeType === 'application/xml' || mimeType === 'text/xml' || mimeType.endsWith('+xml')) return 'xml';
  return null;
}

const htmlSignature = /^\s*<(!doctype html|html|head|body|script|iframe|h1|div|font|table|a|style|title|b|br|p|!--)[\s>]/i;

/** Sniffs an undeclared body the way browsers broadly do; `null` for anything binary or unrecognised. */
export function sniffContentKind(body: Buffer): ContentKind | null {
  const head = body.subarray(0, 1024);
  if (head.subarray(0, 5).toString('latin1') === '%PDF-') return 'pdf';
  // NUL bytes never occur in text in the encodings we decode without a BOM.
  const withoutBom = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? head.subarray(3) : head;
  if (withoutBom.includes(0)) return null;
  const text = withoutBom.toString('latin1');
  if (htmlSignature.test(text)) return 'html';
  if (/^\s*<\?xml/.test(text)) return 'xml';
  if (/^\s*[[{]/.test(text)) return 'json';
  return 'text';
}
