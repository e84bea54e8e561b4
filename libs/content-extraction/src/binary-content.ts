// Enough of the start of a body to tell text from binary: a real page shows its markup within the first KBs.
const SAMPLE_BYTES = 8 * 1024;
// Control bytes that text documents do use: tab, line feed, form feed, carriage return, escape.
const TEXT_CONTROLS = new Set([0x09, 0x0a, 0x0c, 0x0d, 0x1b]);
const MAX_CONTROL_RATIO = 0.05;
const MAX_INVALID_UTF8_RATIO = 0.1;

function isUtf16(bytes: Uint8Array, charset: string): boolean {
  return /^utf-?16/i.test(charset) || (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);
}

/** Length of the valid UTF-8 sequence starting at `index`, or 0 if the byte there starts none. */
function utf8SequenceLength(bytes: Uint8Array, index: number): number {
  const lead = bytes[index] as number;
  const length = lead >= 0xc2 && lead <= 0xdf ? 2 : lead >= 0xe0 && lead <= 0xef ? 3 : lead >= 0xf0 && lead <= 0xf4 ? 4 : 0;
  if (length === 0) return 0;
  for (let offset = 1; offset < length; offset += 1) {
    const next = bytes[index + offset];
    // A sequence cut by the end of the sample counts as valid.
    if (next === undefined) return length;
    if ((next & 0xc0) !== 0x80) return 0;
  }
  return length;
}

/**
 * Whether a body served as text (HTML, plain text, JSON) is binary data: NUL bytes, control bytes or, for a UTF-8
 * body, invalid sequences in its first KBs. Parsers take seconds on megabytes of noise for nothing, so such a body
 * is refused before parsing. UTF-16 text (which is full of NUL bytes) is not judged.
 */
export function looksBinary(body: Uint8Array, charset = ''): boolean {
  if (isUtf16(body, charset)) return false;
  const sample = body.subarray(0, SAMPLE_BYTES);
  if (sample.length === 0) return false;
  const checkUtf8 = charset === '' || /^utf-?8$/i.test(charset);
  let controls = 0;
  let invalidUtf8 = 0;
  for (let index = 0; index < sample.length; index += 1) {
    const byte = sample[index] as number;
    if (byte === 0) return true;
    if (byte < 0x20 && !TEXT_CONTROLS.has(byte)) controls += 1;
    if (checkUtf8 && byte >= 0x80) {
      const length = utf8SequenceLength(sample, index);
      if (length === 0) invalidUtf8 += 1;
      else index += length - 1;
    }
  }
  return controls / sample.length > MAX_CONTROL_RATIO || invalidUtf8 / sample.length > MAX_INVALID_UTF8_RATIO;
}
