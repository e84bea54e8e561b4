import iconv from 'iconv-lite';
import { decodeBody } from './charset-decoding';

describe('decodeBody', () => {
  it('prefers a BOM over the declared charset', () => {
    const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('<p>ü</p>')]);
    expect(decodeBody(body, 'html', 'iso-8859-1')).toEqual({ charset: 'utf-8', text: '<p>ü</p>' });
  });

  it('uses the Content-Type charset before <meta>', () => {
    const body = iconv.encode('<meta charset="utf-8"><p>é</p>', 'windows-1252');
    expect(decodeBody(body, 'html', 'windows-1252').text).toContain('<p>é</p>');
  });

  it('falls back to windows-1252 for undeclared bytes that are not UTF-8', () => {
    expect(decodeBody(iconv.encode('café', 'windows-1252'), 'text', undefined)).toEqual({ charset: 'windows-1252', text: 'café' });
  });

  it('decodes JSON as UTF-8 and PDFs not at all', () => {
    expect(decodeBody(Buffer.from('{"a":"ß"}'), 'json', undefined).text).toBe('{"a":"ß"}');
    expect(decodeBody(Buffer.from('%PDF-1.4'), 'pdf', undefined)).toEqual({ charset: '', text: '' });
  });

  it('reads a page labelled Latin-1 or Latin-9 whose bytes are UTF-8 as UTF-8, and keeps real windows-1252 bytes', () => {
    expect(decodeBody(Buffer.from('<meta charset="iso-8859-1"><p>Pérez Zeledón – Grüße</p>', 'utf8'), 'html', undefined).text).toContain('<p>Pérez Zeledón – Grüße</p>');
    expect(decodeBody(Buffer.from('<p>Pérez</p>', 'utf8'), 'html', 'iso-8859-1').text).toBe('<p>Pérez</p>');
    expect(decodeBody(Buffer.from('<meta charset="iso-8859-15"><p>Prix : 20 €</p>', 'utf8'), 'html', undefined).text).toContain('<p>Prix : 20 €</p>');
    expect(decodeBody(Buffer.from([0x3c, 0x70, 0x3e, 0x47, 0x72, 0xfc, 0xdf, 0x65]), 'html', undefined)).toEqual({ charset: 'windows-1252', text: '<p>Grüße' });
  });

  it('follows a declared non-Latin charset', () => {
    const bytes = Buffer.from([...Buffer.from('<meta charset="koi8-r"><p>'), 0xf0, 0xd2, 0xc9, 0xd7, 0xc5, 0xd4]);
    expect(decodeBody(bytes, 'html', undefined).text).toContain('Привет');
  });

  it('follows a charset declared after the first 1,024 bytes of the head, as a browser re-parsing the page does', () => {
    // An archived copy: the archive's banner scripts come before the page's own <meta>.
    const banner = `<head><script src="/_static/js/bundle-playback.js" charset="utf-8"></script><script>${'var x = 1;\n'.repeat(120)}</script>`;
    const gb2312 = Buffer.from([0xc4, 0xe3, 0xba, 0xc3]); // 你好
    const page = (meta: string) => Buffer.concat([Buffer.from(`${banner}${meta}</head><body><p>`), gb2312, Buffer.from('</p></body>')]);
    expect(decodeBody(page('<meta http-equiv="Content-Type" content="text/html; charset=gb2312"/>'), 'html', undefined)).toEqual({
      // The Encoding Standard's name for the label.
      charset: 'gbk',
      text: expect.stringContaining('<p>你好</p>'),
    });
    expect(decodeBody(page('<meta charset="gb2312">'), 'html', undefined).text).toContain('<p>你好</p>');
    // A declaration in the body is not the page's: the fallback stands.
    const inBody = Buffer.concat([Buffer.from(`${banner}</head><body><meta charset="gb2312"><p>`), gb2312, Buffer.from('</p>')]);
    expect(decodeBody(inBody, 'html', undefined).charset).toBe('windows-1252');
    // A transport label still wins over any <meta>.
    expect(decodeBody(page('<meta charset="gb2312">'), 'html', 'windows-1252').text).not.toContain('你好');
  });
});
