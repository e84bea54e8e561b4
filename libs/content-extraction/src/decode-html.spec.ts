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
