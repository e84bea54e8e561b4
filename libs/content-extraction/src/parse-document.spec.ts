import { noscriptTextLength, parseDocument, stripNonContent, withNoscriptContent } from './parse-document';

describe('<noscript> blocks', () => {
  it('unwraps every closed block, whatever the case of its tags, and keeps the rest of the page', () => {
    const html = '<p>a</p><noscript class="x"><p>first</p></noscript><p>b</p><NOSCRIPT><img src="/i.png"><p>second</p></NOSCRIPT >';
    expect(withNoscriptContent(html)).toBe('<p>a</p><p>first</p><p>b</p><img src="/i.png"><p>second</p>');
    expect(noscriptTextLength(html)).toBe('first'.length + 'second'.length);
  });

  it('leaves a block without an end tag, and everything after it, as it is', () => {
    const html = '<noscript><p>closed</p></noscript><noscript><p>never closed</p>';
    expect(withNoscriptContent(html)).toBe('<p>closed</p><noscript><p>never closed</p>');
    expect(noscriptTextLength(html)).toBe('closed'.length);
  });

  it('reads a page of many unclosed blocks in one pass', () => {
    const html = '<noscript>'.repeat(200_000);
    const startedAt = performance.now();
    expect(withNoscriptContent(html)).toBe(html);
    expect(performance.now() - startedAt).toBeLessThan(1_000);
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
