// The package ships no type declarations; this is its documented signature.
declare module 'html-encoding-sniffer' {
  function sniffHtmlEncoding(
    bytes: Uint8Array,
    options?: { transportLayerEncodingLabel?: string; defaultEncoding?: string },
  ): string;
  export = sniffHtmlEncoding;
}
