import { contentMarkup } from './content-markup';
import { elementToText } from './element-to-text';
import { parseMarkup } from './markup-tree';
import { parseDocument, stripNonContent } from './parse-document';

const cleaned = (html: string): string => contentMarkup(parseMarkup(stripNonContent(html)));

describe('contentMarkup', () => {
  it('drops whitespace-only text beside block tags, so the DOM has no node for it', () => {
    const html = cleaned('<div>\n  <p>One</p>\n  <script>track()</script>\n  <p>Two</p>\n</div>');
    expect(html).toContain('<body><div><p>One</p><p>Two</p></div></body>');
    const div = parseDocument(html).body.firstElementChild;
    expect(Array.from(div?.childNodes ?? []).map((node) => node.nodeName)).toEqual(['P', 'P']);
  });

  it('keeps the spaces between inline elements', () => {
    const html = cleaned('<p><b>bold</b> <i>italic</i> <a href="/x">link</a>\n<span>more</span> text</p>');
    expect(html).toContain('<p><b>bold</b> <i>italic</i> <a href="/x">link</a>\n<span>more</span> text</p>');
    expect(elementToText(parseDocument(html).body)).toBe('bold italic link more text');
  });

  it('keeps whitespace inside preformatted text and text areas', () => {
    const html = cleaned('<div>\n<pre>\n  <div>indented</div>\n  <b>code</b>\n</pre>\n<textarea>\n x \n</textarea></div>');
    expect(html).toContain('<pre>\n  <div>indented</div>\n  <b>code</b>\n</pre>');
    expect(html).toContain('<textarea>\n x \n</textarea>');
  });

  it('keeps the attributes the content steps read and every attribute of images and embeds', () => {
    const html = cleaned(
      '<div class="post" id="p1" data-track="x" onclick="go()" align="left" style="color:red">' +
        '<a href="/a" rel="author" title="T" target="_blank" data-id="7">a</a>' +
        '<img data-lazy-src="/big.jpg" src="/pixel.gif" width="1" data-x="y">' +
        '<iframe src="https://player.example/v" data-video="https://youtube.com/x"></iframe></div>',
    );
    expect(html).toContain('<div class="post" id="p1" style="color:red">');
    expect(html).toContain('<a href="/a" rel="author" title="T">a</a>');
    expect(html).toContain('<img data-lazy-src="/big.jpg" src="/pixel.gif" width="1" data-x="y">');
    expect(html).toContain('data-video="https://youtube.com/x"');
  });

  it("keeps only the head's title, base and the meta tags of Readability's metadata", () => {
    const html = cleaned(
      '<html><head><title>T</title><link rel="stylesheet" href="/s.css"><meta name="viewport" content="width=device-width">' +
        '<meta name="author" content="A"><meta property="og:title" content="O"><base href="/x/"></head><body><p>b</p></body></html>',
    );
    expect(html).toContain('<head><title>T</title><meta name="author" content="A"><meta property="og:title" content="O"><base href="/x/"></head>');
  });
});
