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
      <div class="InlineImage-imageEmbedCaption">The mayor of the harbour town, centre, walks past a restored steam
        locomotive, operated by the regional heritage railway, during the annual transport fair at the old goods station
        in the harbour district, on Saturday, March 4, 2023, a day before the new ferry service began.</div>
      <div class="caption-long">${prose.repeat(10)}</div></body></html>`);
    removeBoilerplate(document);
    const body = bodyOf(document);
    const text = body ? textOf(body) : '';
    expect(text).not.toContain('The picket line');
    expect(text).not.toContain('Credit:');
    // A news agency's caption runs to a few long sentences; it is still a caption, not the article's prose.
    expect(text).not.toContain('restored steam locomotive');
    expect(text.split('Residents').length - 1).toBe(22);
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

  it('removes text hidden by the common frameworks\' classes: screen-reader text and Bootstrap\'s d-none', () => {
    const text = remainingText(`
      <figure><img src="/a.jpg"><span class="off-screen">Image copyright</span></figure>
      <a href="/top"><span class="screen-reader-text">Skip to the top</span></a>
      <label class="sr-only">Search the site</label><span class="visually-hidden">Opens in a new window</span>
      <div class="d-none d-print-block">This document is subject to copyright.</div>
      <div class="d-none d-md-block">Shown on wider screens.</div>`);
    for (const hidden of ['Image copyright', 'Skip to the top', 'Search the site', 'Opens in a new window', 'subject to copyright']) {
      expect(text).not.toContain(hidden);
    }
    expect(text).toContain('Shown on wider screens.');
    expect(text.split('Residents').length - 1).toBe(12);
  });

  it('removes datelines named by class or marked as microdata dates, but not prose that borrows the name', () => {
    const text = remainingText(`
      <div class="s-data"><span class="date"> Published Monday, May 8, 2023 9:15AM </span></div>
      <span class="storyDate">Posted: Tue 4:10 PM, Jun 6, 2023</span>
      <span class="posted-on">Posted on July 1, 2022</span>
      <span class="submitted-by">By A. Reporter - 05/09/23 10:00 AM</span>
      <span class="data" itemprop="datePublished">quinta-feira, 4 de maio de 2023</span>
      <div class="dates-section"><p>Dates prose kept. ${prose.repeat(3)}</p></div>`);
    for (const dateline of ['Published Monday', 'Tue 4:10 PM', 'July 1, 2022', 'A. Reporter', 'quinta-feira']) {
      expect(text).not.toContain(dateline);
    }
    expect(text).toContain('Dates prose kept.');
  });

  it("reads no role in a heading's id, which is its anchor made from its own words", () => {
    const text = remainingText(`
      <div class="sect1"><h2 id="_date_formats">DATE FORMATS</h2><p>The following date formats are supported.</p></div>
      <div class="sect2"><h3 id="_options_related_to_merging">Options related to merging</h3><p>--commit</p></div>
      <h3 class="related-title">Related stories</h3>`);
    expect(text).toContain('DATE FORMATS');
    expect(text).toContain('Options related to merging');
    expect(text).not.toContain('Related stories');
  });

  it('removes call-to-action boxes, even when they are prose', () => {
    const text = remainingText(`
      <div class="members-cta-wrap"><div class="members-cta"><h4>Before you go</h4><p>If you liked this story, we have an
        offer for you: become a member. ${prose}</p></div></div>`);
    expect(text).not.toContain('Before you go');
    expect(text).not.toContain('become a member');
    expect(text.split('Residents').length - 1).toBe(12);
  });

  it('removes the caption beside the picture in a picture box written without <figure>, but not the picture nor a box of text', () => {
    const document = parseMarkup(`<html><body><div>${prose.repeat(12)}</div>
      <div class="image top imgTop"><img src="/walk.jpg"><p>In this file photo, divers inspect the old quay's
        foundations. (Harbour Board via Wire Agency, File)</p></div>
      <div class="ImageArticle-Container"><div class="ImageArticle-ImageFrame"><picture><img src="/jep.jpg"></picture></div>
        <div class="ImageArticle-ContainerText"><div>The hearing room of the harbour board.</div><div>Photo: Board</div></div></div>
      <div class="photo-story"><img src="/story.jpg"><p>Photo story kept, first part.</p><p>Second part.</p></div>
      <div class="image-box"><img src="/box.jpg"><h3>Box heading kept</h3><p>Box text kept.</p></div></body></html>`);
    removeBoilerplate(document);
    const body = bodyOf(document);
    const text = body ? textOf(body) : '';
    for (const caption of ['divers inspect', 'hearing room', 'Photo: Board']) expect(text).not.toContain(caption);
    for (const kept of ['Photo story kept', 'Second part.', 'Box heading kept', 'Box text kept.']) expect(text).toContain(kept);
    const pictures = body ? DomUtils.getElementsByTagName('img', body) : [];
    expect(pictures.map((picture) => picture.attribs['src'])).toEqual(['/walk.jpg', '/jep.jpg', '/story.jpg', '/box.jpg']);
  });

  it("removes a <figure>'s credit beside its picture outside <figcaption>, and the caption in a box of no name beside a picture", () => {
    const document = parseMarkup(`<html><body><div>${prose.repeat(12)}</div>
      <figure class="element"><div class="img-wrapper stage"><img src="/lead.jpg"><figcaption>Figcaption left to the pruner</figcaption></div>
        <span class="description">Agency/Photographer</span></figure>
      <div class="imginline"><img src="/map.png"><span>Figure: snow depth on the glacier, measured and modelled.</span></div>
      <div class="visual"><picture><img src="/phone.jpg"></picture><div class="description"><strong>A small round notch for the camera.</strong>
        <div class="box"><span class="copy">Renders by a designer</span></div></div></div>
      <div class="card"><img src="/card.jpg"><p>Card paragraph kept.</p></div>
      <div class="intro"><img src="/icon.png"> Running text beside an icon kept.</div>
      <div class="note"><img src="/icon.png"><a href="/more">Link beside a picture kept</a></div></body></html>`);
    removeBoilerplate(document);
    const body = bodyOf(document);
    const text = body ? textOf(body) : '';
    for (const caption of ['Agency/Photographer', 'snow depth', 'round notch', 'Renders by']) expect(text).not.toContain(caption);
    for (const kept of ['Figcaption left to the pruner', 'Card paragraph kept.', 'Running text beside an icon kept.', 'Link beside a picture kept']) {
      expect(text).toContain(kept);
    }
    const pictures = body ? DomUtils.getElementsByTagName('img', body) : [];
    expect(pictures).toHaveLength(6);
  });

  it('removes the box about the writer (author bio, author box, itemprop="author") even when it is prose, and keeps other prose', () => {
    const text = remainingText(`
      <section class="author-bio"><h4>A. Writer</h4><div class="author-bio-description"><p>Bio box. ${prose.repeat(3)}</p></div></section>
      <div class="TestReport__AuthorBox"><blockquote>Camel-case box. ${prose.repeat(3)}</blockquote></div>
      <div class="saboxplugin-wrap" itemprop="author" itemscope><div itemprop="description"><p>Person box. ${prose.repeat(3)}</p></div></div>
      <div class="article-text author-post"><p>Post kept. ${prose.repeat(3)}</p></div>`);
    for (const boilerplate of ['Bio box.', 'Camel-case box.', 'Person box.']) expect(text).not.toContain(boilerplate);
    expect(text).toContain('Post kept.');
  });
});
