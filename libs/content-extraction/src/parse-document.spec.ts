import { noscriptTextLength, withNoscriptContent } from './parse-document';

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
