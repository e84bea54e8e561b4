import { NodeHtmlMarkdown } from 'node-html-markdown';
import { getMarkdownForHtmlNodes } from 'node-html-markdown/dist/visitor';
import { nodesToMarkdown } from './dom-markdown';
import { parseDocument } from './parse-document';

/** The children of a container parsed from `html`, as extraction hands them to the converter. */
function childrenOf(html: string): Node[] {
  const container = parseDocument(`<html><body><div id="content">${html}</div></body></html>`).getElementById('content') as Element;
  container.normalize();
  const nodes: Node[] = [];
  for (let child = container.firstChild; child; child = child.nextSibling) nodes.push(child);
  return nodes;
}

const markdownOf = (html: string): string => nodesToMarkdown(childrenOf(html));

// The library with the options extraction used before this converter replaced it.
const library = new NodeHtmlMarkdown({
  bulletMarker: '-',
  codeBlockStyle: 'fenced',
  ignore: ['script', 'style', 'noscript', 'iframe', 'button', 'form'],
  maxConsecutiveNewlines: 2,
});
const libraryMarkdownOf = (nodes: Node[], tagName = ''): string =>
  getMarkdownForHtmlNodes(library, { nodeType: 1, tagName, childNodes: nodes, parentNode: null, getAttribute: () => null } as never);

describe('nodesToMarkdown', () => {
  it('numbers ordered list items, nested lists indented, and skips items with nothing in them', () => {
    expect(markdownOf('<ol><li>one</li><li><span></span></li><li>two<ul><li>inner</li><li>more</li></ul></li><li>three</li></ol>')).toBe(
      '1. one\n2. two\n  - inner\n  - more\n3. three',
    );
  });

  it('writes a table with its caption, padded columns and an escaped pipe', () => {
    expect(markdownOf('<table><caption>Sizes</caption><tr><th>Name</th><th>Size</th></tr><tr><td>a|b</td><td>12</td></tr></table>')).toBe(
      '__Sizes__\n| Name | Size |\n| ---- | ---- |\n| a\\|b | 12   |',
    );
  });

  it('fences a code block with its language and wraps inline code in more backticks than it holds', () => {
    expect(markdownOf('<pre><code class="language-sh">echo `date`\n  indented</code></pre><p>Use <code>a `b` c</code> here.</p>')).toBe(
      '```sh\necho `date`\n  indented\n```\n\nUse `` a `b` c `` here.',
    );
  });

  it('writes a link with its title, encodes the href, and writes a bare url as an autolink', () => {
    expect(markdownOf('<p><a href="https://a.example/x_(y)" title="The X">the x</a> and <a href="https://b.example/">https://b.example/</a></p>')).toBe(
      '[the x](https://a.example/x%5F%28y%29 "The X") and <https://b.example/>',
    );
  });

  it('separates emphasis from an emphasis right before it with the same delimiter', () => {
    expect(markdownOf('<p><b>one</b><b>two</b> <em>three</em><em>four</em></p>')).toBe('**one** **two** _three_ _four_');
  });

  it('escapes markdown characters, and markers only at the start of a line', () => {
    expect(markdownOf('<p>- not a list</p><p># not a heading</p><p>a - b_c *d*</p><p>2. not numbered</p>')).toBe(
      '\\- not a list\n\n\\# not a heading\n\na - b\\_c \\*d\\*\n\n2\\. not numbered',
    );
  });

  it('drops elements with nothing to write, and ignored elements with their text', () => {
    expect(markdownOf('<p></p><div><span></span></div><p>kept</p><script>var x;</script><b> </b><button>Go</button>')).toBe('kept');
  });

  it('quotes a blockquote and writes headings, rules and line breaks', () => {
    expect(markdownOf('<h3>Title</h3><blockquote><p>quoted</p><p>again</p></blockquote><hr><p>line<br>next</p>')).toBe(
      '### Title\n\n> quoted\n> \n> again\n\n---\n\nline  \nnext',
    );
  });
});

describe('nodesToMarkdown against node-html-markdown', () => {
  // Invented fragments covering each rule, context and edge the library has; the output must be the same bytes.
  const fragments = [
    '<p>Plain text with  several\n\tspaces and\u00a0a non-breaking one.</p>',
    '<p>\n  starts on a new line</p><p>ends in space <b>bold</b> </p>',
    '<h1>One</h1><h2>Two</h2><h6>Six</h6><h4></h4>',
    '<ul><li>a</li><li>b<ol><li>c</li><li></li><li>d<p>para</p></li></ol></li></ul>',
    '<ol><li>one</li><pre><li>inside pre</li></pre><li>two</li><a href="/x"><li>in a link</li></a><li>three</li></ol>',
    '<ol><li><span></span></li><li> </li><li>real</li></ol><li>orphan item</li>',
    '<table><thead><tr><th>H1</th><th>H2</th><th></th></tr></thead><tbody><tr><td>a</td><td><a href="/l">link</a> <b>b</b></td></tr><tr></tr><tr><td>x|y|z</td></tr></tbody></table>',
    '<table><tr><td><table><caption>inner</caption><tr><td>nested</td></tr></table></td></tr></table><table></table><table><tr><td> </td></tr></table>',
    '<table><caption>first</caption><caption>second\nline</caption><tr><td><pre>keep  this</pre><code>c</code></td></tr></table>',
    '<pre><code>line 1\n\nline 2 with <b>bold</b> and <img src="/i.png"> and <br> break\n<div>div</div><h2>head</h2><hr></code></pre>',
    '<pre><code class="x language-js y">const a = `t`;</code> extra</pre><pre>plain pre   text</pre>',
    '<p>Inline <code>x</code><code>y</code> and <code>``</code> and <code> </code></p>',
    '<p><a href="https://e.example/a*b">text <b>bold</b><br>after<pre>pre\n text</pre></a><a>no href</a><a href="">empty</a></p>',
    '<p><a href="https://e.example/" title="">https://e.example/</a> <a href="/t" title="T">t</a><a href="/u"></a></p>',
    '<p><img src="/a.png" alt="A" title="T"> <img src="data:image/png;base64,xx" alt="D"> <img alt="none"> <img src="/b.png"></p>',
    '<p><strong>s</strong><b>b</b><em>e</em><i>i</i><del>d</del><s>s</s><strike>k</strike></p>',
    '<p><b>outer <b>inner</b> tail</b> <em> lead and trail </em> <i>a_b</i> <b>multi\nline</b></p>',
    '<p><b>one</b>\n<b>two</b></p><p><em></em><strong>  </strong>x</p>',
    '<blockquote><p>level one</p><blockquote><p>level two</p></blockquote></blockquote>',
    '<p>+ plus</p><p>= equals</p><p>&gt; gt</p><p>### hashes</p><p>#nospace</p><p>version 3. next 10. more</p><p>1.5 not</p>',
    '<p>&lt;!DOCTYPE html&gt; after</p><p>before &lt;!doctype x&gt;</p>',
    '<p>a\\b `c` ~d~ [e] _f_ *g*</p>',
    '<div>  </div><p>x</p>   <p>y</p><section><article>z</article></section>',
    '<dl><dt>term</dt><dd>definition</dd></dl><figure><img src="/f.png"><figcaption>cap</figcaption></figure>',
    '<p>one<br>two<br><br><br>three</p><hr><hr>',
    '<iframe src="/x">frame</iframe><noscript>ns</noscript><style>p{}</style><form><input>form</form><p>after</p>',
    '<p><span>in</span><span>line</span> <span> spaced </span></p><!-- a comment --><p>next</p>',
    '<ul><li>first\nline</li><li>second  </li><li><p>para one</p><p>para two</p></li><li>- dash</li></ul>',
    '<ul><li><ul><li><ul><li>deep</li></ul></li></ul></li></ul>',
    '<p>x</p><pre>\n\nleading newlines</pre><p>y</p>',
    '<table><tr><td>a\nb</td><td><ul><li>list in cell</li></ul></td></tr></table>',
    '<h2><a href="/h">Heading link</a></h2><h3><code>code</code> heading</h3>',
    '<p>Tail spaces   </p>',
    '<svg><text>svg text</text></svg><p>after svg</p>',
  ];

  it.each(fragments)('%s', (html) => {
    const nodes = childrenOf(html);
    expect(nodesToMarkdown(nodes)).toBe(libraryMarkdownOf(nodes));
  });

  it('writes the children of a list or definition list the library wrote under that tag', () => {
    const items = childrenOf('<li>one</li><li><b>two</b></li> <li>three<ol><li>x</li></ol></li>');
    expect(nodesToMarkdown(items, 'UL')).toBe(libraryMarkdownOf(items, 'UL'));
    const terms = childrenOf('<dt>term</dt><dd>text</dd>');
    expect(nodesToMarkdown(terms, 'DL')).toBe(libraryMarkdownOf(terms, 'DL'));
    expect(nodesToMarkdown([], 'UL')).toBe(libraryMarkdownOf([], 'UL'));
  });
});
