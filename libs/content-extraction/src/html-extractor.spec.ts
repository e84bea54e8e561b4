import { readFileSync } from 'node:fs';
import path from 'node:path';
import { extractHtml, extractPage } from './html-extractor';
import { DocumentTags } from './document-tags';
import { readPageMetadata } from './page-metadata';
import { parseMarkup } from './markup-tree';
import { readJsonLd } from './parse-document';
import { contentHashOf } from './web-page';

const article = readFileSync(path.join(__dirname, 'fixtures', 'article.html'), 'utf8');
const pageUrl = 'https://grind.example/guides/coffee?ref=home';

describe('extractHtml on an article page', () => {
  const result = extractHtml(article, { baseUrl: pageUrl, includeImages: true });

  it('renders headings, lists, links, code blocks and GFM tables as markdown', () => {
    expect(result.markdown).toMatch(/^## What you need$/m);
    expect(result.markdown).toMatch(/^- A burr grinder, which gives an even grind size$/m);
    expect(result.markdown).toContain('[full ratio guide](https://grind.example/guides/ratios)');
    expect(result.markdown).toContain('![A burr grinder](https://grind.example/guides/images/grinder.webp)');
    expect(result.markdown).not.toMatch(/pixel\.gif|data:image/);
    expect(result.markdown).toMatch(/```[a-z]*\nfor \(const pour of \[50, 150, 320\]\) \{\n {2}await pourTo\(pour\);\n\}\n```/);
    expect(result.markdown).toMatch(/\| Method +\| Coffee \(g\) \| Water \(g\) \|\n\| -+ \| -+ \| -+ \|\n\| Pour-over +\| 20 +\| 320 +\|/);
  });

  it('keeps the article text and drops navigation, sharing, related links, comments and footer', () => {
    expect(result.text).toContain('Good coffee starts with fresh beans.');
    expect(result.text).toContain('Taste, adjust the grind by one step at a time');
    expect(result.text).toContain('A kitchen scale accurate to a tenth of a gram');
    for (const boilerplate of ['Share on Social', 'Tea for beginners', 'Great article', 'All rights reserved', 'About']) {
      expect(result.text).not.toContain(boilerplate);
      expect(result.markdown).not.toContain(boilerplate);
    }
  });

  it('separates paragraphs in plain text and keeps words whole', () => {
    expect(result.text).toMatch(/exposure to air\.\n\nWhat you need\n\nA burr grinder/);
    expect(result.text).not.toMatch(/[#*`|]{2}/);
  });

  it('reads title and metadata', () => {
    expect(result.title).toBe('Brewing Better Coffee');
    expect(result.description).toBe('A practical guide to brewing coffee at home.');
    expect(result.publishedDate).toBe('2024-03-05T09:30:00.000Z');
    expect(result.language).toBe('en-GB');
    expect(result.isNews).toBe(true);
    expect(result.isUnsafe).toBe(false);
    // html lang en-GB and an hreflang alternate "de": only the first names a region.
    expect(result.countryHints).toEqual(['GB']);
    expect(result.favicon).toBe('https://grind.example/static/icon.svg');
  });

  it('reads the metadata the page document does not carry (site name, canonical URL, raw language hints)', () => {
    const metadata = readPageMetadata(new DocumentTags(parseMarkup(article)), readJsonLd(article), pageUrl);
    expect(metadata.siteName).toBe('The Daily Grind');
    expect(metadata.canonicalUrl).toBe('https://grind.example/guides/coffee');
    expect(metadata.contentLanguageHints).toEqual(['en-GB', 'de']);
  });

  it('is a WebPage: the URL as requested, the final URL, and the hash of the text', () => {
    expect(result.finalUrl).toBe(pageUrl);
    expect(result.url).toBe(pageUrl);
    expect(result.contentHash).toBe(contentHashOf(result.text));
    expect(result.contentHash).toMatch(/^[0-9a-f]{64}$/);
    const redirected = extractHtml(article, { baseUrl: pageUrl, url: 'http://grind.example/coffee' });
    expect(redirected.url).toBe('http://grind.example/coffee');
    expect(redirected.finalUrl).toBe(pageUrl);
  });

  it('lists absolute, deduplicated images without data URIs or tracking pixels', () => {
    expect(result.images.map((image) => image.url)).toEqual([
      'https://grind.example/images/cover.jpg',
      'https://grind.example/images/beans.jpg',
      'https://grind.example/guides/images/grinder.webp',
    ]);
    expect(result.images[1].alt).toBe('Roasted beans');
  });

  it('skips the markdown conversion in text format', () => {
    const textOnly = extractHtml(article, { baseUrl: pageUrl, format: 'text' });
    expect(textOnly.markdown).toBe(textOnly.text);
    expect(textOnly.text).toBe(result.text);
  });

  it('leaves images out when they are not wanted', () => {
    expect(extractHtml(article, { baseUrl: pageUrl, includeImages: false }).images).toEqual([]);
  });
});

describe('extractHtml on a page that spells letters with combining marks', () => {
  it('gives its title, description, text and markdown in composed form (NFC), as the same words typed are', () => {
    const decomposed = 'Gru\u0308\u00dfe aus Ko\u0308ln';
    const html = `<html><head><title>${decomposed}</title><meta name="description" content="U\u0308ber ${decomposed}"></head><body><article><h1>${decomposed}</h1><p>${'Die Stadt Ko\u0308ln gru\u0308\u00dft ihre Ga\u0308ste mit einem langen Absatz. '.repeat(8)}</p></article></body></html>`;
    const result = extractHtml(html, { baseUrl: 'https://koeln.example/gruss' });
    expect(result.title).toBe('Grüße aus Köln');
    expect(result.description).toBe('Über Grüße aus Köln');
    expect(result.text).toContain('Die Stadt Köln grüßt ihre Gäste');
    expect(result.markdown).toContain('Die Stadt Köln grüßt ihre Gäste');
    expect(`${result.title}${result.text}${result.markdown}`).not.toMatch(/\u0308/);
    expect(result.contentHash).toBe(contentHashOf(result.text));
  });
});

describe('extractHtml on a page whose scripts render the article its JSON-LD states', () => {
  const sentence = 'The council voted to keep the harbour ferry running through the winter months. ';
  const stated = `${sentence.repeat(5)}\n\n${'Fares stay at two euros for residents and visitors alike. '.repeat(5)}`;
  const page = (body: string, articleBody: string) =>
    `<html><head><title>Ferry stays</title><script type="application/ld+json">${JSON.stringify({ '@context': 'https://schema.org', '@type': 'NewsArticle', headline: 'Ferry stays', articleBody })}</script></head><body>${body}</body></html>`;

  it('gives the stated article body, in paragraphs, when the markup shows a teaser of it', () => {
    const html = page('<div id="app"><p>The council voted on the ferry. READ FULL ARTICLE</p></div>', stated);
    for (const result of [extractHtml(html, { baseUrl: 'https://harbour.example/ferry' }), extractPage(html, { baseUrl: 'https://harbour.example/ferry' }).page]) {
      expect(result.text).toBe(`${sentence.repeat(5).trim()}\n\n${'Fares stay at two euros for residents and visitors alike. '.repeat(5).trim()}`);
      expect(result.markdown).toBe(result.text);
      expect(result.title).toBe('Ferry stays');
      expect(result.contentHash).toBe(contentHashOf(result.text));
    }
  });

  it('reads a stated body given as markup as text', () => {
    const html = page('<div id="app"></div>', `<p>${sentence.repeat(4)}</p><p>${sentence.repeat(4)}</p>`);
    expect(extractHtml(html, { baseUrl: 'https://harbour.example/ferry' }).text).toBe(`${sentence.repeat(4).trim()}\n\n${sentence.repeat(4).trim()}`);
  });

  it('keeps the markup\'s article when it shows a good part of the stated body', () => {
    const shown = `<article><h1>Ferry stays</h1><p>${sentence.repeat(3)}</p><p>Shown only in the markup.</p></article>`;
    const result = extractHtml(page(shown, stated), { baseUrl: 'https://harbour.example/ferry' });
    expect(result.text).toContain('Shown only in the markup.');
    expect(result.text).not.toContain('Fares stay');
  });
});

describe('extractHtml on an article beside a long table', () => {
  it('keeps the article\'s paragraphs when Readability prefers the table of names below them', () => {
    const names = Array.from({ length: 60 }, (_, index) => `Signatory ${index}, University of Somewhere`).join('<br>');
    const letter = 'Our institutions are facing a moment of trial, and open debate is the remedy we ask for. ';
    const html = `<html><head><title>A letter</title></head><body><article><div class="content">
      <p>${letter.repeat(3)}</p><p>${letter.repeat(3)}</p><p>${letter.repeat(2)}</p>
      <table><tbody><tr><td>${names}</td><td>${names.replace(/Signatory/g, 'Writer')}</td></tr><tr><td>(Affiliations are listed for identification only.)</td></tr></tbody></table>
    </div></article></body></html>`;
    const result = extractHtml(html, { baseUrl: 'https://letters.example/open' });
    expect(result.text).toContain('Our institutions are facing a moment of trial');
    expect(result.text).toContain('Signatory 59, University of Somewhere');
  });

  it('leaves a layout table\'s content cell alone', () => {
    const story = 'The river rose two metres overnight and the old bridge was closed to traffic until Friday. ';
    const html = `<html><body><table><tr><td><a href="/">Home</a><br><a href="/news">News</a></td><td><p>${story.repeat(4)}</p><p>${story.repeat(4)}</p></td></tr></table></body></html>`;
    const result = extractHtml(html, { baseUrl: 'https://river.example/flood' });
    expect(result.text).toContain('The river rose two metres');
    expect(result.text).not.toContain('Home');
  });
});

describe('extractHtml on a short article in a wrapper named content', () => {
  const story = 'The food industry, with its long and global supply chains, holds much of the potential for reaching the climate goal. ';
  const page = (after: string): string => `<html><head><title>Food lab</title></head><body><div id="main"><div id="content">
    <div><h1>Food transformation lab</h1><p>${story.repeat(3)}</p><p>${story.repeat(2)}</p></div>
    ${after}
  </div></div></body></html>`;

  it('leaves out the contact column after the article\'s box, which Readability\'s choice of the wrapper brings', () => {
    const contact = '<div><h2>Contact person:</h2><p>Jane Doe, phone +49 40 123 45</p><div><p>CLIMATE NEUTRAL COMPANIES</p><div>How companies qualify as climate neutral</div></div></div>';
    const result = extractHtml(page(contact), { baseUrl: 'https://lab.example/news/1' });
    expect(result.text).toContain('The food industry, with its long and global supply chains');
    expect(result.text).not.toContain('Contact person');
    expect(result.text).not.toContain('CLIMATE NEUTRAL COMPANIES');
  });

  it('keeps a paragraph after the article\'s box, which is the article\'s own', () => {
    const result = extractHtml(page('<p>Jane Doe, phone +49 40 123 45</p>'), { baseUrl: 'https://lab.example/news/2' });
    expect(result.text).toContain('Jane Doe, phone +49 40 123 45');
  });
});

describe('extractHtml on pages Readability gives up on', () => {
  it('falls back to the densest text region of a short page', () => {
    const html = '<html><head><title>Note</title></head><body><nav><a href="/">Home</a></nav><div><p>A short note that is still the whole content of this page.</p></div></body></html>';
    const result = extractHtml(html, { baseUrl: 'https://notes.example/1' });
    expect(result.text).toBe('A short note that is still the whole content of this page.');
    expect(result.title).toBe('Note');
  });

  it('returns empty content for an empty document instead of throwing', () => {
    expect(extractHtml('', { baseUrl: 'https://empty.example/' }).text).toBe('');
  });
});

describe('extractHtml on a page whose scripts write its content', () => {
  const paragraphs = [
    'Over the past few years the threats on the web have become more sophisticated, and phishing sites rotate their domains quickly to avoid being blocked by lists that update once an hour.',
    'Today we are announcing a stronger protection mode that checks pages in real time, for people who want a more advanced level of security while browsing the web.',
    'Turning it on substantially increases protection from dangerous websites and downloads, and it shares additional data with the service so that new threats are recognised sooner.',
  ];
  const post = paragraphs.map((paragraph) => `<p>${paragraph}</p>`).join('\n');
  // A Blogger post: the body is a script template (written by the page's scripts) followed by a <noscript> copy.
  const blogPost = `<html><head><title>Stronger protection</title></head><body>
    <header><h1><a href="/">Security Blog</a></h1></header>
    <div class="post"><h2 class="title">Stronger protection now available</h2>
      <div class="post-body"><script type="text/template">${post}</script><noscript>${post}</noscript></div></div>
    <footer><a href="/privacy">Privacy</a> <a href="/terms">Terms</a></footer></body></html>`;

  it('reads the <noscript> copy when the page without scripts shows almost nothing', () => {
    const result = extractHtml(blogPost, { baseUrl: 'https://blog.example/2020/05/protection.html' });
    for (const paragraph of paragraphs) expect(result.text).toContain(paragraph);
    expect(result.markdown).toContain(paragraphs[1]);
    expect(result.text).not.toContain('Privacy');
  });

  it('does so for crawlers too, with the links of the page as served', () => {
    const { page, links } = extractPage(blogPost, { baseUrl: 'https://blog.example/2020/05/protection.html', format: 'text' });
    expect(page.text).toContain(paragraphs[0]);
    expect(links.links.map((link) => link.url)).toContain('https://blog.example/privacy');
  });

  it('leaves a short <noscript> notice out of a short page', () => {
    const html = `<html><head><title>Note</title></head><body><div><p>A short note that is still the whole content of this page.</p></div>
      <noscript><p>Please enable JavaScript to view the comments powered by a comment service that needs it.</p></noscript></body></html>`;
    expect(extractHtml(html, { baseUrl: 'https://notes.example/1' }).text).toBe('A short note that is still the whole content of this page.');
  });

  it('leaves <noscript> blocks out of a page that shows its content without scripts', () => {
    const article = `<html><head><title>Article</title></head><body><article>${post}</article>
      <noscript><div>${'This site works best with JavaScript turned on, because the player, the comments and the maps need it. '.repeat(8)}</div></noscript></body></html>`;
    const result = extractHtml(article, { baseUrl: 'https://news.example/a' });
    expect(result.text).toContain(paragraphs[2]);
    expect(result.text).not.toContain('works best with JavaScript');
  });
});

describe('extractHtml on blocks whose compound class names say "hidden"', () => {
  const prose = (topic: string) =>
    `<p>The ${topic} took the committee most of the spring, and its members say the result is a compromise that nobody fully likes.</p>`;
  const page = (list: string, field: string) => `<html><head><title>Report</title></head><body><div class="article">
    ${prose('first draft')}${prose('second reading')}
    <ul class="${list}"><li>Members can now vote by post on every motion of the committee</li><li>Minutes are published within a week of each meeting of the committee</li></ul>
    <div class="${field}"><p>The final text, now the committee's own rules, was adopted on Tuesday evening by a large majority of its members.</p></div>
    ${prose('third reading')}${prose('public consultation')}</div></body></html>`;

  it('keeps a list hidden only on phone screens (hidden-xs) and a field whose label is hidden (field--label-hidden)', () => {
    const { text } = extractHtml(page('feature-list hidden-xs', 'field field--label-hidden'), { baseUrl: 'https://committee.example/report', format: 'text' });
    expect(text).toContain('Members can now vote by post');
    expect(text).toContain('The final text, now the committee');
    expect(text).toContain('public consultation');
  });
});

describe('extractHtml on an article quoting embedded posts', () => {
  const prose = (topic: string) =>
    `<p>The ${topic} drew wide attention online on Monday, and the state's officials answered their critics the same evening.</p>`;
  const tweet = (text: string) => `<div class="social-media-embed"><blockquote class="twitter-tweet"><p lang="en" dir="ltr">${text}
    <a href="https://t.co/x1">https://t.co/x1</a></p>— A reader (@reader) <a href="https://twitter.com/reader/status/1">November 18, 2019</a></blockquote></div>`;
  const html = `<html><head><title>Slogan</title></head><body><div class="article-body">
    ${prose('new slogan')}${tweet('Yes this is real and the state paid for it')}${prose('campaign')}
    <div class="social-share"><a href="/share/fb">Share on Facebook</a> <a href="/share/tw">Tweet this</a></div>
    ${tweet('The rest of the campaigns are just as bad')}${prose('second campaign')}${prose('old road safety slogan')}</div></body></html>`;

  it("keeps a tweet in its embed markup in a wrapper named social, and drops the sharing bar", () => {
    const { text } = extractHtml(html, { baseUrl: 'https://news.example/slogan', format: 'text' });
    expect(text).toContain('Yes this is real and the state paid for it');
    expect(text).toContain('The rest of the campaigns are just as bad');
    expect(text).toContain('old road safety slogan');
    expect(text).not.toContain('Share on Facebook');
  });
});
