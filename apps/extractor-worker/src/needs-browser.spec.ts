import { needsBrowser } from './needs-browser';

describe('needsBrowser', () => {
  it('asks for the browser when an empty shell ships scripts', () => {
    const shell = '<!doctype html><html><body><div id="root"></div><script src="/app.js"></script></body></html>';
    expect(needsBrowser(shell, '')).toBe(true);
  });

  it('keeps the HTTP result when the page already has text', () => {
    const article = `<html><body><article>${'Words about something. '.repeat(20)}</article><script>track()</script></body></html>`;
    expect(needsBrowser(article, 'Words about something. '.repeat(20))).toBe(false);
  });

  it('keeps a short page without scripts: there is nothing more to render', () => {
    expect(needsBrowser('<html><body><p>Short.</p></body></html>', 'Short.')).toBe(false);
  });
});
