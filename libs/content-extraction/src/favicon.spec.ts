import { faviconFor } from './favicon';

describe('faviconFor', () => {
  const page = 'https://site.example/blog/post.html';

  it('prefers <link rel=icon>, also written as "shortcut icon"', () => {
    expect(faviconFor('<link rel="apple-touch-icon" href="/touch.png"><link rel="shortcut icon" href="img/fav.png">', page)).toBe(
      'https://site.example/blog/img/fav.png',
    );
  });

  it('falls back to the Apple touch icon', () => {
    expect(faviconFor('<link rel="apple-touch-icon-precomposed" href="/touch.png">', page)).toBe('https://site.example/touch.png');
  });

  it('resolves against <base href>', () => {
    expect(faviconFor('<base href="https://cdn.example/assets/"><link rel="icon" href="fav.ico">', page)).toBe('https://cdn.example/assets/fav.ico');
  });

  it('falls back to /favicon.ico at the origin', () => {
    expect(faviconFor('<html><head><title>x</title></head></html>', page)).toBe('https://site.example/favicon.ico');
    expect(faviconFor('<link rel="icon" href="javascript:void(0)">', page)).toBe('https://site.example/favicon.ico');
  });
});
