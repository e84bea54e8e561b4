import { parseHTML } from 'linkedom';
import { NodeHtmlMarkdown } from 'node-html-markdown';
// The module whose export the converter calls after every append (node-html-markdown/dist/visitor.js).
import * as converterUtilities from 'node-html-markdown/dist/utilities';
import { getMarkdownForHtmlNodes } from 'node-html-markdown/dist/visitor';

// patches/ holds fixes to dependencies, applied by `npm install` (patch-package). Measured in docs/benchmarks.md,
// round 11. These tests fail when a patch is not applied (a fresh install that skipped it, or a new version).

describe('linkedom as patched for extraction', () => {
  afterEach(() => jest.restoreAllMocks());

  // linkedom gave every node it built a listener Map in a module-wide WeakMap: three WeakMap insertions per element
  // of a parsed page, and the garbage they leave. Extraction adds no listeners; the patch creates the Map on the
  // first listener.
  it('builds a page of 2,000 elements without a WeakMap entry per node', () => {
    const set = jest.spyOn(WeakMap.prototype, 'set');
    const { document } = parseHTML(`<html><body>${'<p class="x">para <b>bold</b> text</p>'.repeat(1000)}</body></html>`);
    expect(document.querySelectorAll('*').length).toBeGreaterThan(2000);
    // Unpatched: 6,004 calls for this page.
    expect(set.mock.calls.length).toBeLessThan(10);
  });

  it('still delivers events to listeners, and removing a listener never added is harmless', () => {
    const { document, window } = parseHTML('<html><body><p>text</p></body></html>');
    const paragraph = document.querySelector('p')!;
    const seen: string[] = [];
    const listener = (event: Event): void => {
      seen.push(event.type);
    };
    document.body.removeEventListener('click', listener);
    paragraph.addEventListener('click', listener);
    paragraph.dispatchEvent(new window.Event('click'));
    paragraph.removeEventListener('click', listener);
    paragraph.dispatchEvent(new window.Event('click'));
    expect(seen).toEqual(['click']);
  });
  // linkedom kept attribute names as written, and its getAttribute is case-sensitive: `<A HREF>` had no href and
  // `<IMG SRC ALT>` no src or alt for the extractor. The patch lowercases them outside SVG, as browsers do.
  it('lowercases HTML attribute names (the first of two spellings wins) and keeps SVG attributes as written', () => {
    const { document } = parseHTML('<html><body><A HREF="/a" Title="One" title="Two">a</A><svg viewBox="0 0 1 1"><path fillRule="evenodd"/></svg></body></html>');
    const link = document.querySelector('a')!;
    expect(link.getAttribute('href')).toBe('/a');
    expect(link.getAttribute('title')).toBe('One');
    expect(link.attributes).toHaveLength(2);
    expect(document.querySelector('svg')!.getAttribute('viewBox')).toBe('0 0 1 1');
    expect(document.querySelector('path')!.getAttribute('fillRule')).toBe('evenodd');
  });
});

// node-html-markdown converted extraction's content until dom-markdown.ts replaced it; it stays a development
// dependency, as patched, because dom-markdown.spec.ts checks that the replacement writes the same bytes it does.
describe('node-html-markdown as patched for extraction', () => {
  afterEach(() => jest.restoreAllMocks());

  // After every append the converter measured the trailing whitespace of its whole output so far, a string it
  // had just grown, which V8 flattens on each read: time quadratic in the appends. The patch keeps the output's
  // last ten characters (all the scan ever looks at) apart and measures those.
  it('measures trailing whitespace on the last ten characters, not on the whole output', () => {
    const scan = jest.spyOn(converterUtilities, 'getTrailingWhitespaceInfo');
    const html = Array.from({ length: 200 }, (_, i) => `<h2>Part ${i}</h2><p>Some <em>text</em> and <code>code</code>.</p>`).join('');
    const markdown = new NodeHtmlMarkdown().translate(html);
    expect(scan).toHaveBeenCalled();
    expect(Math.max(...scan.mock.calls.map(([output]) => output.length))).toBeLessThanOrEqual(10);
    expect(markdown.length).toBeGreaterThan(5000);
  });

  // Extraction converts linkedom's tree directly (html-to-markdown.ts). linkedom's `childNodes` builds a new list on
  // every read, and the converter listed every node's children twice (marking, then writing) through it and copied
  // the list again; the patch walks firstChild/nextSibling when the node has them.
  it('lists a DOM node\'s children by its siblings, without reading childNodes', () => {
    const { document } = parseHTML('<html><body><p>one <b>two</b> three</p></body></html>');
    const paragraph = document.querySelector('p')!;
    let owner: object | null = paragraph;
    while (owner && !Object.prototype.hasOwnProperty.call(owner, 'childNodes')) owner = Object.getPrototypeOf(owner) as object | null;
    const read = jest.spyOn(owner as { childNodes: NodeListOf<ChildNode> }, 'childNodes', 'get');
    const children = converterUtilities.getChildNodes(paragraph as never) as unknown as Node[];
    expect(children.map((child) => child.textContent)).toEqual(['one ', 'two', ' three']);
    expect(read).not.toHaveBeenCalled();
  });

  // Unpatched, the visitor read node-html-parser's `text` and `isWhitespace` from a text node; a DOM text node has
  // neither (its `data`), so its text came out undefined.
  it('writes a DOM tree\'s text from its text nodes\' data', () => {
    const { document } = parseHTML('<html><body><div><p>Hello <b>bold</b> world</p>  <p>second</p></div></body></html>');
    const root = { nodeType: 1, tagName: '', childNodes: [document.querySelector('div')!], parentNode: null, getAttribute: () => null };
    expect(getMarkdownForHtmlNodes(new NodeHtmlMarkdown(), root as never)).toBe('Hello **bold** world\n\nsecond');
  });

  it('writes the markdown it wrote unpatched: blank lines between blocks, a space between repeated emphasis, links', () => {
    const html =
      '<h1>Title</h1><p>One <b>bold</b><b>bold</b> and <a href="https://example.com/a">a link</a>.</p>' +
      '<ul><li>first</li><li>second<p>inner</p></li></ul><pre><code>line 1\n\nline 2</code></pre><p>end  </p>';
    expect(new NodeHtmlMarkdown({ bulletMarker: '-', codeBlockStyle: 'fenced' }).translate(html)).toBe(
      '# Title\n\nOne **bold** **bold** and [a link](https://example.com/a).\n\n- first\n- second  \ninner\n\n```\nline 1\n\nline 2\n```\n\nend',
    );
  });
});
