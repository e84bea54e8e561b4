import { NodeHtmlMarkdown } from 'node-html-markdown';

const converter = new NodeHtmlMarkdown({
  bulletMarker: '-',
  codeBlockStyle: 'fenced',
  // Readability already kept only content; images appear in the images list, not as markdown noise.
  ignore: ['script', 'style', 'noscript', 'iframe', 'button', 'form'],
  maxConsecutiveNewlines: 2,
});

// node-html-markdown re-reads the tail of its whole output after every append, which flattens the growing string
// each time: its cost is quadratic in the output size (seconds on a 300 KB manual page). Converting the content
// in pieces of about this many HTML characters keeps every piece cheap and the total linear.
const PIECE_HTML_CHARS = 16_000;

// Containers whose children can be converted in separate runs without changing the markdown: block wrappers,
// and unnumbered lists, re-wrapped in their own tag. Ordered lists stay whole: the converter ignores `start`,
// so a split one would restart its numbering.
const SPLITTABLE_TAGS = new Set(['DIV', 'SECTION', 'ARTICLE', 'MAIN', 'BODY', 'HEADER', 'FOOTER', 'ASIDE', 'BLOCKQUOTE', 'UL', 'DL']);
const LIST_TAGS = new Set(['UL', 'DL']);
const BLOCK_TAGS = new Set([
  ...SPLITTABLE_TAGS, 'P', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'PRE', 'TABLE', 'FIGURE', 'HR', 'LI', 'DT', 'DD', 'DETAILS', 'NAV',
]);
const ELEMENT_NODE = 1;

function isBlock(node: Node): boolean {
  return node.nodeType === ELEMENT_NODE && BLOCK_TAGS.has((node as Element).tagName.toUpperCase());
}

/** Serialised HTML of any node; linkedom escapes text nodes in `toString`. */
function nodeHtml(node: Node): string {
  return node.nodeType === ELEMENT_NODE ? (node as Element).outerHTML : String(node);
}

function wrapRun(container: Element, runHtml: string): string {
  const tag = container.tagName.toLowerCase();
  return LIST_TAGS.has(container.tagName.toUpperCase()) ? `<${tag}>${runHtml}</${tag}>` : runHtml;
}

/** Converts the children of `container` in runs of bounded size, splitting only between blocks. */
function convertChildren(container: Element, pieces: string[]): void {
  let run = '';
  const flush = (): void => {
    if (run.trim()) pieces.push(converter.translate(wrapRun(container, run)).trim());
    run = '';
  };
  for (let child = container.firstChild; child; child = child.nextSibling) {
    const html = nodeHtml(child);
    const splittableChild = child.nodeType === ELEMENT_NODE && SPLITTABLE_TAGS.has((child as Element).tagName.toUpperCase());
    if (html.length > PIECE_HTML_CHARS && splittableChild && !LIST_TAGS.has(container.tagName.toUpperCase())) {
      flush();
      convertChildren(child as Element, pieces);
      continue;
    }
    if (run.length + html.length > PIECE_HTML_CHARS && isBlock(child)) flush();
    run += html;
  }
  flush();
}

/** The children of an element as GitHub-flavoured markdown (ATX headings, fenced code, pipe tables). */
export function elementToMarkdown(element: Element): string {
  const pieces: string[] = [];
  convertChildren(element, pieces);
  return pieces.filter((piece) => piece.length > 0).join('\n\n');
}
