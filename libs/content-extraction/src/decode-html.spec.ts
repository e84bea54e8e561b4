import { decodeHtml } from './decode-html';
import { parseDocument, stripNonContent } from './parse-document';

describe('decodeHtml', () => {
  it('reads unlabelled UTF-8 as UTF-8, not as the windows-1252 fallback', () => {
    expect(decodeHtml(Buffer.from('<p>Pérez Zeledón – Grüße</p>', 'utf8'))).toBe('<p>Pérez Zeledón – Grüße</p>');
  });

  it('keeps real windows-1252 bytes, which are not valid UTF-8', () => {
    expect(decodeHtml(Buffer.from([0x3c, 0x70, 0x3e, 0x47, 0x72, 0xfc, 0xdf, 0x65]))).toBe('<p>Grüße');
  });

  it('follows a declared non-Latin charset', () => {
    const bytes = Buffer.from([...Buffer.from('<meta charset="koi8-r"><p>'), 0xf0, 0xd2, 0xc9, 0xd7, 0xc5, 0xd4]);
    expect(decodeHtml(bytes)).toContain('Привет');
  });

  it('follows a charset declared after the first 1,024 bytes of the head, as a browser re-parsing the page does', () => {
    // An archived copy: the archive's banner scripts come before the page's own <meta>.
    const banner = `<head><script src="/_static/js/bundle-playback.js" charset="utf-8"></script><script>${'var x = 1;\n'.repeat(120)}</script>`;
    const gbk = Buffer.from([0xc4, 0xe3, 0xba, 0xc3]); // 你好 in GB2312
    const page = (meta: string) => Buffer.concat([Buffer.from(`${banner}${meta}</head><body><p>`), gbk, Buffer.from('</p></body>')]);
    expect(decodeHtml(page('<meta http-equiv="Content-Type" content="text/html; charset=gb2312"/>'))).toContain('<p>你好</p>');
    expect(decodeHtml(page('<meta charset="gb2312">'))).toContain('<p>你好</p>');
    // A declaration in the body is not the page's (nor is one past the scanned prefix): the fallback stands.
    const inBody = Buffer.concat([Buffer.from(`${banner}</head><body><meta charset="gb2312"><p>`), gbk, Buffer.from('</p>')]);
    expect(decodeHtml(inBody)).not.toContain('你好');
    // A transport label still wins over any <meta>.
    expect(decodeHtml(page('<meta charset="gb2312">'), 'text/html; charset=windows-1252')).not.toContain('你好');
  });
});

describe('parseDocument and stripNonContent', () => {
  it('keeps the body when a plugin printed markup before the doctype', () => {
    const document = parseDocument('<title>Early</title><style>p{}</style>\n<!DOCTYPE html><html><head><meta charset="utf-8"></head><body><p>Body text</p></body></html>');
    expect(document.body.textContent).toContain('Body text');
    expect(document.querySelector('title')?.textContent).toBe('Early');
  });

  it('ends a script at an end tag with junk before ">", as a browser does', () => {
    const stripped = stripNonContent('<script src="a.js"></script\n  <!-- note --><p>Visible</p><script>x()</script>');
    expect(stripped).toContain('<p>Visible</p>');
  });
});
