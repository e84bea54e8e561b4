import { extractHtml } from './html-extractor';

const prose = 'The council approved the new library budget after a long debate about opening hours and staff. ';

describe('page metadata read before boilerplate removal', () => {
  it('reads metadata, dates and favicons that sit inside blocks removed as boilerplate', () => {
    const html = `<html lang="fr-CA"><head></head><body>
      <nav class="navbar"><h1>Town News</h1><link rel="icon" href="/icons/town.png"></nav>
      <div class="share-bar"><meta itemprop="description" content="Budget approved."><a href="/s">Share</a></div>
      <article><p>${prose.repeat(6)}</p></article>
      <footer><time datetime="2024-05-02T08:00:00Z">2 May</time></footer>
    </body></html>`;
    const page = extractHtml(html, { baseUrl: 'https://news.example/budget' });
    expect(page.text).not.toContain('Town News');
    expect(page.title).toBe('Town News');
    expect(page.description).toBe('Budget approved.');
    expect(page.publishedDate).toBe('2024-05-02T08:00:00.000Z');
    expect(page.favicon).toBe('https://news.example/icons/town.png');
    expect(page.language).toBe('fr-CA');
    expect(page.countryHints).toEqual(['CA']);
  });
});
