import { readFileSync } from 'node:fs';
import path from 'node:path';
import { detectBlockPage } from './block-page-detector';

const fixture = (name: string) => readFileSync(path.join(__dirname, 'fixtures', name), 'utf8');
const article = fixture('article.html');

describe('detectBlockPage', () => {
  it('reports refusal statuses whatever the body', () => {
    for (const status of [401, 403, 429, 503]) expect(detectBlockPage({ status, html: article })).toMatch(new RegExp(String(status)));
  });

  it("recognises Cloudflare's \"Just a moment\" challenge served with 200", () => {
    expect(detectBlockPage({ status: 200, html: fixture('cloudflare-challenge.html') })).toBe('Cloudflare browser challenge');
  });

  it('recognises a captcha wall', () => {
    expect(detectBlockPage({ status: 200, html: fixture('captcha-wall.html') })).toBe('captcha wall');
  });

  it('uses a title given by the caller (from a rendered browser page)', () => {
    expect(detectBlockPage({ status: 200, html: '<p>wait</p>', title: 'Attention Required! | Cloudflare' })).toBe('Cloudflare block page');
  });

  it('accepts real content, even with a captcha in its comment form', () => {
    expect(detectBlockPage({ status: 200, html: article })).toBeNull();
    const longArticle = article.replace('</article>', `<p>${'More text. '.repeat(200)}</p><div class="g-recaptcha"></div></article>`);
    expect(detectBlockPage({ status: 200, html: longArticle })).toBeNull();
  });

  it('judges a long page by its visible text wherever it is, not by the part it read first', () => {
    // Tens of kilobytes of script before a short captcha text: the script is no text, so it is still a captcha wall.
    const script = `<script>var data = "${'x'.repeat(60_000)}";</script>`;
    const wall = `<html><head><title>Check</title>${script}</head><body><p>Please verify you are human.</p></body></html>`;
    expect(detectBlockPage({ status: 200, html: wall })).toBe('captcha wall');
    // A long article whose captcha widget comes after the first piece read is content.
    const article = `<html><head><title>Article</title></head><body><article>${'<p>Plain words of an article. </p>'.repeat(3000)}<div class="g-recaptcha"></div></article></body></html>`;
    expect(detectBlockPage({ status: 200, html: article })).toBeNull();
  });
});
