import { extractHtml } from './html-extractor';

const body = `<div class="article-body">${'<p>The council met on Tuesday and agreed on the harbour plan after a long debate about its cost. </p>'.repeat(8)}</div>`;
const page = (beforeBody: string) => `<html><head><title>Harbour plan</title></head><body>
  <nav><a href="/">Home</a> <a href="/news">News</a></nav>
  <main><article>${beforeBody}${body}</article></main>
  <footer>Harbour Gazette</footer></body></html>`;
const textOf = (html: string) => extractHtml(html, { baseUrl: 'https://news.example/harbour' }).text;

describe('extractHtml with an article lead in the title block', () => {
  it("puts the lead the template names before the content, from a title block that is not prose", () => {
    const text = textOf(page(`<header><h1>Harbour plan agreed</h1><p class="article-lead">The new quay will open in two years, and ferries will call every hour.</p><span class="byline">By A. Writer</span></header>`));
    expect(text).toMatch(/^The new quay will open in two years, and ferries will call every hour\.\n\nThe council met on Tuesday/);
    expect(text).not.toContain('Harbour plan agreed');
  });

  it('keeps a lead out when it is the site\'s tagline, furniture, or far from the content', () => {
    const tagline = `<header class="site-header"><p class="site-description">News from the harbour town since eighteen ninety-nine, every day.</p></header>`;
    expect(textOf(page(tagline))).not.toContain('News from the harbour town');
    const consent = `<div class="cookie-notice"><p class="notice-intro">We use cookies to improve your experience on this site and to count visits.</p></div>`;
    expect(textOf(page(consent))).not.toContain('We use cookies');
    const timetable = `<div class="timetable"><ul>${'<li>Ferry at ten past the hour, platform two, every day.</li>'.repeat(12)}</ul></div>`;
    const far = textOf(page(`<header><p class="intro">The new quay will open in two years, and ferries will call every hour.</p></header>${timetable}`));
    expect(far).not.toContain('Ferry at ten past');
    expect(far).not.toContain('The new quay will open');
  });

  it('does not repeat a lead the content holds already', () => {
    const text = textOf(`<html><body><article><div class="text"><p class="lead">The new quay will open in two years, and ferries will call every hour.</p>${body}</div></article></body></html>`);
    expect(text.match(/The new quay will open/g)).toHaveLength(1);
  });
});
