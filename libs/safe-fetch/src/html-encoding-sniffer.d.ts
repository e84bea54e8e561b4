// html-encoding-sniffer ships no types; this is the part of its API we use.
declare module 'html-encoding-sniffer' {
  function sniffHtmlEncoding(
    bytes: Uint8Array,
    options?: { transportLayerEncodingLabel?: string; defaultEncoding?: string },
  ): string;
  export = sniffHtmlEncoding;
}
