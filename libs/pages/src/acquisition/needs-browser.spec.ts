import { needsBrowser } from './needs-browser';

describe('needsBrowser', () => {
  it('asks for the browser when an empty shell ships scripts', () => {
    expect(needsBrowser(true, '')).toBe(true);
  });

  it('keeps the HTTP result when the page already has text', () => {
    expect(needsBrowser(true, 'Words about something. '.repeat(20))).toBe(false);
  });

  it('keeps a short page without scripts: there is nothing more to render', () => {
    expect(needsBrowser(false, 'Short.')).toBe(false);
  });
});
