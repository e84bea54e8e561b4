import { pageKey, parseRootUrl, toCrawlableUrl } from './url-normalization';

describe('url normalization', () => {
  it('resolves relative links, drops fragments and default ports, refuses non-http schemes', () => {
    expect(toCrawlableUrl('../b.html#part', 'http://Example.com:80/a/c.html')?.href).toBe('http://example.com/b.html');
    expect(toCrawlableUrl('mailto:someone@example.com', 'https://example.com/')).toBeUndefined();
    expect(toCrawlableUrl('javascript:void(0)', 'https://example.com/')).toBeUndefined();
  });

  it('treats a directory, its trailing slash and its index.html as one page', () => {
    const keys = ['https://example.com/docs/', 'https://example.com/docs', 'http://example.com/docs/index.html'].map((url) =>
      pageKey(new URL(url)),
    );
    expect(new Set(keys).size).toBe(1);
    expect(pageKey(new URL('https://example.com/docs?page=2'))).not.toBe(keys[0]);
  });

  it('reads a root URL written without a scheme as https', () => {
    expect(parseRootUrl('docs.example.com/guide')?.href).toBe('https://docs.example.com/guide');
    expect(parseRootUrl('ftp://example.com/')).toBeUndefined();
  });
});
