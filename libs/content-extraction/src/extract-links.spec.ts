import { extractHtml, extractPage } from './html-extractor';
import { extractLinks } from './link-extractor';
import { extractPlainText } from './plain-text-extractor';

describe('extractLinks', () => {
  const html = `<html><head>
    <base href="https://docs.example/manual/">
    <link rel="canonical" href="/manual/index.html">
    <meta name="robots" content="index, nofollow">
  </head><body>
    <nav><a href="/">Home</a></nav>
    <p>See <a href="git-web&#x2d;&#x2d;browse.html#options">git web--browse</a> for the browser helper.</p>
    <a href="https://other.example/page" rel="external nofollow">Other</a>
    <a href="mailto:someone@example.org">Mail</a>
    <a href="javascript:void(0)">Script</a>
  </body></html>`;
  const result = extractLinks(html, 'https://docs.example/start');

  it('returns every http(s) link of the page, entity-decoded, resolved against <base href>, without fragment', () => {
    expect(result.links.map((link) => link.url)).toEqual([
      'https://docs.example/',
      'https://docs.example/manual/git-web--browse.html',
      'https://other.example/page',
    ]);
  });

  it('reads attributes written in capitals, as browsers do (older sites write <A HREF>)', () => {
    const legacy = extractLinks('<HTML><BODY><P>Next: <A HREF="chapter2.html" REL="nofollow">Chapter 2</A></P></BODY></HTML>', 'https://old.example/book/');
    expect(legacy.links).toEqual([expect.objectContaining({ url: 'https://old.example/book/chapter2.html', text: 'Chapter 2', nofollow: true })]);
  });

  it('keeps anchor text, surrounding context and rel=nofollow', () => {
    const [, helper, other] = result.links;
    expect(helper.text).toBe('git web--browse');
    expect(helper.context).toBe('See git web--browse for the browser helper.');
    expect(helper.nofollow).toBe(false);
    expect(other.nofollow).toBe(true);
  });

  it('reports canonical URL, base href and meta robots nofollow', () => {
    expect(result.canonicalUrl).toBe('https://docs.example/manual/index.html');
    expect(result.baseHref).toBe('https://docs.example/manual/');
    expect(result.robotsNoFollow).toBe(true);
    expect(extractLinks('<a href="/x">x</a>', 'https://a.example/').robotsNoFollow).toBe(false);
  });
});

describe('extractPlainText', () => {
  it('passes text through with the first line as title', () => {
    const result = extractPlainText('Release notes\r\n\r\nVersion 2 fixes the parser.\n', 'https://a.example/notes.txt');
    expect(result.title).toBe('Release notes');
    expect(result.text).toBe('Release notes\n\nVersion 2 fixes the parser.');
    expect(result.markdown).toBe(result.text);
  });
});

describe('extractPage', () => {
  const html = `<html><head><title>Guide</title></head><body>
    <nav><a href="/">Home</a> <a href="/guides/">Guides</a></nav>
    <article><h1>Guide</h1><p>${'Brewing needs patience and fresh beans, ground just before use. '.repeat(8)}</p>
    <p>Read the <a href="ratios.html">ratio guide</a> next.</p></article>
  </body></html>`;
  const extracted = extractPage(html, { baseUrl: 'https://grind.example/guides/coffee', format: 'text' });

  it('returns the same links as extractLinks, navigation included, although the content drops the navigation', () => {
    expect(extracted.links).toEqual(extractLinks(html, 'https://grind.example/guides/coffee'));
    expect(extracted.links.links.map((link) => link.url)).toEqual([
      'https://grind.example/',
      'https://grind.example/guides/',
      'https://grind.example/guides/ratios.html',
    ]);
    expect(extracted.page.text).not.toContain('Home');
  });

  it('returns the same content as extractHtml', () => {
    expect(extracted.page).toEqual(extractHtml(html, { baseUrl: 'https://grind.example/guides/coffee', format: 'text' }));
    expect(extracted.page.text).toContain('Read the ratio guide next.');
  });
});
