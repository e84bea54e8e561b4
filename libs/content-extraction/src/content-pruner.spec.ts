import { extractHtml } from './html-extractor';

const paragraph = (words: string) => `<p>${words} ${'The council met on Tuesday and agreed on the plan after a long debate. '.repeat(3)}</p>`;

describe('extractHtml precision filters inside the article', () => {
  const html = `<html><head><title>Plan</title></head><body><article>
    <h1>Plan agreed</h1>
    ${paragraph('First.')}
    <p>Lea también: <a href="/other">Otra noticia sobre el consejo municipal</a></p>
    <figure><img src="/a.jpg" alt=""><figcaption>Foto: Agencia / Fotógrafa</figcaption></figure>
    ${paragraph('Second, with <a href="/budget">the budget</a> linked inline.')}
    <p><small>© 2019 Capitol Publishing Corp., a subsidiary of News Communications</small></p>
    <h2>Weiterführende Links</h2>
    <ul><li><a href="/a">Erster Link</a></li><li><a href="/b">Zweiter Link</a></li></ul>
  </article></body></html>`;
  const result = extractHtml(html, { baseUrl: 'https://news.example/plan' });

  it('drops lines that are mostly a link, link lists and captions, in any language', () => {
    expect(result.text).not.toContain('Otra noticia');
    expect(result.text).not.toContain('Erster Link');
    expect(result.text).not.toContain('Foto: Agencia');
  });

  it('drops a short line stating a copyright, but not a short page\'s whole content beside one', () => {
    expect(result.text).not.toContain('Capitol Publishing');
    const short = `<html><body><div><p>${'A note on the harbour ferry timetable for the winter months. '.repeat(3)}</p><span>© Harbour Office</span></div></body></html>`;
    const page = extractHtml(short, { baseUrl: 'https://harbour.example/note' });
    expect(page.text).toContain('A note on the harbour ferry timetable');
    expect(page.text).not.toContain('Harbour Office');
  });

  it('drops the heading those blocks leave without text, and keeps prose with inline links', () => {
    expect(result.text).not.toContain('Weiterführende Links');
    expect(result.text).toContain('Second, with the budget linked inline.');
    expect(result.text).toContain('First.');
  });

  it('keeps a paragraph that is an anchor or an e-mail address: neither points to another page', () => {
    const page = `<html><body><article>
      ${paragraph('Opening.')}
      <p><a name="question">One of the questions listeners ask most: what does the professor say?</a></p>
      ${paragraph('Answer.')}
      <p>Send your reports to this address:</p>
      <p><a href="mailto:reports@school.example">reports@school.example</a></p>
      ${paragraph('Closing.')}
    </article></body></html>`;
    const text = extractHtml(page, { baseUrl: 'https://news.example/anchors' }).text;
    expect(text).toContain('One of the questions listeners ask most');
    expect(text).toContain('reports@school.example');
  });

  it('treats an over-long "heading" (an article inside <h2>) as text', () => {
    const misuse = `<html><body><div><h2>${'Whole article written inside a heading element by a broken theme. '.repeat(6)}</h2></div></body></html>`;
    expect(extractHtml(misuse, { baseUrl: 'https://news.example/h2' }).text).toContain('Whole article written inside a heading');
  });

  it('drops the label ending in a colon, or the heading, right before a removed link list, and keeps one before text', () => {
    const page = `<html><body><article>
      ${paragraph('First.')}
      <p><strong>Read these stories too:</strong></p>
      <ul><li><a href="/a">Why the harbour board moved its offices</a></li><li><a href="/b">Ferry fares stay the same next year</a></li></ul>
      ${paragraph('Second.')}
      <h3>More on this topic</h3>
      <ul><li>2021-03-02: <a href="/c">The quay opens its visitor centre</a></li></ul>
      ${paragraph('Third.')}
      <p><strong>The reasons:</strong></p>
      <ul><li>The council debated for a long time and in the end agreed unanimously.</li></ul>
    </article></body></html>`;
    const text = extractHtml(page, { baseUrl: 'https://news.example/labels' }).text;
    expect(text).not.toContain('Read these stories');
    expect(text).not.toContain('More on this topic');
    expect(text).toContain('The reasons:');
    expect(text).toContain('Third.');
  });
});
