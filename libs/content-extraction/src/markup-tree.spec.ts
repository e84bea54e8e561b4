import { bodyOf, markupHtml, parseMarkup, textOf } from './markup-tree';
import { parseDocument } from './parse-document';

// Markup a content scorer must see unchanged after the round trip through the light tree: entities and
// non-breaking spaces, quotes in attributes, attribute names in upper case, implied end tags, void elements.
const page = `<!doctype html><html lang="de"><head><title>A &amp; B</title><META NAME="description" CONTENT="x"></head>
<body><div class='main' data-x="say &quot;hi&quot;"><p>One&nbsp;&lt;two&gt; &eacute; <b>bold</b><p>Implied
<ul><li>first<li>second</ul><img src="a.png" alt="A"><br><table><tr><td>cell<td>cell two</table></div>
<p>Tail &copy; 2024</p></body></html>`;

describe('markup tree', () => {
  it('serialises to markup that linkedom builds into the same DOM as the page itself', () => {
    const direct = parseDocument(page);
    const roundTrip = parseDocument(markupHtml(parseMarkup(page)));
    expect(roundTrip.body.innerHTML).toBe(direct.body.innerHTML);
    expect(roundTrip.head.innerHTML).toBe(direct.head.innerHTML);
    expect(roundTrip.documentElement.getAttribute('lang')).toBe('de');
  });

  it('finds the element linkedom returns as the body, and reads text as textContent does', () => {
    const tree = parseMarkup(page);
    const body = bodyOf(tree);
    expect(body?.name).toBe('body');
    expect(textOf(body ?? tree)).toBe(parseDocument(page).body.textContent);
    // Markup before <html> and a missing <body> are completed as for linkedom.
    expect(bodyOf(parseMarkup('<p>fragment</p>'))?.name).toBe('body');
    expect(bodyOf(parseMarkup('<html><head></head><div>no body</div></html>'))).toBeUndefined();
  });
});
