import { removeBoilerplate } from './boilerplate-cleaner';
import { DomUtils } from 'htmlparser2';
import { bodyOf, parseMarkup, textOf } from './markup-tree';

const prose = 'Residents gathered in the square to discuss the new library, which opens next spring with longer hours. ';

function remainingText(body: string): string {
  const document = parseMarkup(`<html><body>${body}<div>${prose.repeat(12)}</div></body></html>`);
  removeBoilerplate(document);
  const remaining = bodyOf(document);
  return remaining ? textOf(remaining) : '';
}

describe('removeBoilerplate', () => {
  it('removes link rails named sidebar or widget, and comment sections even when they are prose', () => {
    const text = remainingText(`
      <div class="sidebar"><a href="/1">Most read story one</a> <a href="/2">Most read story two</a></div>
      <div class="widget"><a href="/3">Archive</a></div>
      <section class="comments"><p>${prose}</p><p>${prose}</p></section>`);
    expect(text).not.toContain('Most read');
    expect(text).not.toContain('Archive');
    expect(text.split('Residents').length - 1).toBe(12);
  });

  it('keeps prose in blocks whose class names a layout modifier or a negated furniture word', () => {
    const text = remainingText(`
      <div class="article-content sticky-sidebar-relative"><p>Modifier kept. ${prose.repeat(3)}</p></div>
      <section class="non-paywall"><p>Negation kept: short.</p></section>
      <header class="article-header"><h1>Library opens</h1><p>Headline block kept. ${prose.repeat(3)}</p></header>`);
    expect(text).toContain('Modifier kept.');
    expect(text).toContain('Negation kept: short.');
    expect(text).toContain('Headline block kept.');
  });

  it('keeps a furniture block that holds the article body the page marks (itemprop="articleBody"), and furniture inside it goes', () => {
    const text = remainingText(`
      <aside class="direct-content"><section itemscope itemtype="http://schema.org/Article">
        <h1 itemprop="headline">Book prize awarded</h1>
        <div itemprop="articleBody"><p>Marked article kept: a novel about the old republic won the prize.</p>
          <div class="share"><a href="/s">Share this</a></div></div>
      </section></aside>
      <aside class="rail"><a href="/r">Rail story</a></aside>`);
    expect(text).toContain('Marked article kept');
    expect(text).toContain('Book prize awarded');
    expect(text).not.toContain('Share this');
    expect(text).not.toContain('Rail story');
  });

  it('removes captions and credits marked by class outside <figure>, but not the picture they wrap nor prose', () => {
    const document = parseMarkup(`<html><body><div>${prose.repeat(12)}</div>
      <div class="wp-caption"><img src="/strike.jpg" alt="Strike"><p class="wp-caption-text">The picket line in the hall</p></div>
      <p><img src="/graph.png"><br><em class="image-credit">(Credit: Clayton Aldern)</em></p>
      <div class="caption-long">${prose.repeat(3)}</div></body></html>`);
    removeBoilerplate(document);
    const body = bodyOf(document);
    const text = body ? textOf(body) : '';
    expect(text).not.toContain('The picket line');
    expect(text).not.toContain('Credit:');
    expect(text.split('Residents').length - 1).toBe(15);
    const pictures = body ? DomUtils.getElementsByTagName('img', body) : [];
    expect(pictures.map((picture) => picture.attribs['src'])).toEqual(['/strike.jpg', '/graph.png']);
  });

  it('removes disclaimers, affiliate notices, picture legends, and comment sections named in German, French or Spanish', () => {
    const text = remainingText(`
      <div class="editorial-disclaimer"><p>The views below are not the editors'.</p></div>
      <div class="affiliate-text"><p>We earn money when you buy through these links.</p></div>
      <div class="image legend">Kastanienselven im Winter</div>
      <section class="kommentare"><p>Keine Kommentare</p></section>
      <div id="commentaires">${prose}</div>
      <div class="comentarios-lista">Sin comentarios</div>`);
    for (const boilerplate of ["not the editors'", 'We earn money', 'Kastanienselven', 'Keine Kommentare', 'Sin comentarios']) {
      expect(text).not.toContain(boilerplate);
    }
    expect(text.split('Residents').length - 1).toBe(12);
  });
});
