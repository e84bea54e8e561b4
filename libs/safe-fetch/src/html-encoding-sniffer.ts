import { createRequire } from 'node:module';

type SniffHtmlEncoding = (bytes: Uint8Array, options?: { transportLayerEncodingLabel?: string; defaultEncoding?: string }) => string;

// html-encoding-sniffer ships no type declarations; loading it here gives its single export the signature
// its README documents, without an ambient declaration every importing project would have to include.
export const sniffHtmlEncoding = createRequire(__filename)('html-encoding-sniffer') as SniffHtmlEncoding;
