import { randomBytes } from 'node:crypto';
import { looksBinary } from './binary-content';

const encode = (text: string) => new TextEncoder().encode(text);

describe('looksBinary', () => {
  it('refuses random bytes, whatever charset they claim', () => {
    const noise = randomBytes(64 * 1024);
    expect(looksBinary(noise, 'utf-8')).toBe(true);
    expect(looksBinary(noise, 'windows-1252')).toBe(true);
    expect(looksBinary(noise)).toBe(true);
  });

  it('refuses a body with NUL bytes or many control bytes', () => {
    expect(looksBinary(encode('<html><body>text\u0000more</body></html>'))).toBe(true);
    expect(looksBinary(Uint8Array.from({ length: 1000 }, (_value, index) => (index % 10 === 0 ? 0x01 : 0x61)))).toBe(true);
  });

  it('refuses bytes that are mostly invalid UTF-8 in a UTF-8 body', () => {
    const invalid = Uint8Array.from({ length: 1000 }, (_value, index) => (index % 4 === 0 ? 0xff : 0x61));
    expect(looksBinary(invalid, 'utf-8')).toBe(true);
    // The same bytes are valid Latin-1 text.
    expect(looksBinary(invalid, 'iso-8859-1')).toBe(false);
  });

  it('accepts text: HTML in UTF-8 with every script, Latin-1, UTF-16, empty', () => {
    expect(looksBinary(encode('<!doctype html><title>Zürich – 東京 – Москва 🙂</title>\t<p>line\r\nform\f feed</p>'.repeat(200)), 'utf-8')).toBe(false);
    expect(looksBinary(Buffer.from('<p>Caf\u00e9 cr\u00e8me</p>'.repeat(100), 'latin1'), 'iso-8859-1')).toBe(false);
    expect(looksBinary(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('<p>text</p>', 'utf16le')]))).toBe(false);
    expect(looksBinary(Buffer.from('<p>text</p>', 'utf16le'), 'utf-16le')).toBe(false);
    expect(looksBinary(new Uint8Array(0))).toBe(false);
  });

  it('accepts a UTF-8 sequence cut at the end of the sample', () => {
    const text = encode(`${'a'.repeat(8 * 1024 - 1)}é`);
    expect(looksBinary(text, 'utf-8')).toBe(false);
  });
});
