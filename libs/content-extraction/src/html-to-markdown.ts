import { NodeHtmlMarkdown } from 'node-html-markdown';

const converter = new NodeHtmlMarkdown({
  bulletMarker: '-',
  codeBlockStyle: 'fenced',
  // Readability already kept only content; images appear in the images list, not as markdown noise.
  ignore: ['script', 'style', 'noscript', 'iframe', 'button', 'form'],
  maxConsecutiveNewlines: 2,
});

// node-html-markdown reads its growing output back while it writes it: every link's post-processing reads its own
// text back from the whole string, which flattens it each time, so one conversion costs time quadratic in the
// number of links (12 s on a page of 10k links). Its trailing-whitespace scan after every append did the same; that
// one is patched (patches/node-html-markdown+2.0.0.patch keeps the output's last ten characters apart: the same
// markdown, 15-20 % less extraction time on the Git manual pages). Converting the content in pieces of about this
// many HTML characters keeps every piece cheap and the total linear.
const PIECE_HTML_CHARS = 16_000;

// Containers whose children can be converted in separate runs without changing the markdown: block wrappers,
// and unnumbered lists, re-wrapped in their own tag. Ordered lists stay whole: the converter ignores `start`,
// so a split one would restart its numbering.
const SPLITTABLE_TAGS = new Set(['DIV', 'SECTION', 'ARTICLE', 'MAIN', 'BODY', 'HEADER', 'FOOTER', 'ASIDE', 'BLOCKQUOTE', 'UL', 'DL']);
const LIST_TAGS = new Set(['UL', 'DL']);
// A paragraph adds only blank lines around its inline content, so a long one is converted as that content.
const PARAGRAPH_TAG = 'P';
const BLOCK_TAGS = new Set([
  ...SPLITTABLE_TAGS, 'P', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'PRE', 'TABLE', 'FIGURE', 'HR', 'LI', 'DT', 'DD', 'DETAILS', 'NAV',
]);
const ELEMENT_NODE = 1;
const TEXT_NODE = 3;

/** What joins a piece to the one before: a block boundary, or a cut inside a line of inline content. */
type PieceJoint = 'block' | 'space' | 'none';
const JOINT_TEXT: Record<PieceJoint, string> = { block: '\n\n', space: ' ', none: '' };
const JOINT_STRENGTH: Record<PieceJoint, number> = { none: 0, space: 1, block: 2 };

/** Markdown pieces in order, each joined to the previous one as its boundary requires; empty pieces vanish. */
class MarkdownPieces {
  private readonly parts: string[] = [];
  private pendingJoint: PieceJoint | undefined;

  add(markdown: string, joint: PieceJoint): void {
    if (this.pendingJoint === undefined || JOINT_STRENGTH[joint] > JOINT_STRENGTH[this.pendingJoint]) this.pendingJoint = joint;
    if (!markdown) return;
    if (this.parts.length > 0) this.parts.push(JOINT_TEXT[this.pendingJoint]);
    this.parts.push(markdown);
    this.pendingJoint = undefined;
  }

  toString(): string {
    return this.parts.join('');
  }
}

function tagOf(node: Node | null): string | undefined {
  return node?.nodeType === ELEMENT_NODE ? (node as Element).tagName.toUpperCase() : undefined;
}

function isBlock(node: Node): boolean {
  const tag = tagOf(node);
  return tag !== undefined && BLOCK_TAGS.has(tag);
}

/** A link the converter writes as `[text](href)` or `<href>`: its markdown starts and ends with a bracket. */
function isBracketedLink(node: Node | null): boolean {
  return tagOf(node) === 'A' && Boolean((node as Element).getAttribute('href')) && !/^\s/.test(node?.textContent ?? '');
}

/**
 * A text node between two links, where inline content can be cut without changing the markdown: the converter
 * writes the text the same way wherever it starts, and the next link begins with a bracket. Only the text's
 * trailing space (trimmed off the piece) has to be put back, as the joint.
 */
function inlineCutAfter(node: Node): PieceJoint | undefined {
  if (node.nodeType !== TEXT_NODE || !isBracketedLink(node.previousSibling) || !isBracketedLink(node.nextSibling)) return undefined;
  return /\s$/.test(node.textContent ?? '') ? 'space' : 'none';
}

/** Serialised HTML of any node; linkedom escapes text nodes in `toString`. */
function nodeHtml(node: Node): string {
  return node.nodeType === ELEMENT_NODE ? (node as Element).outerHTML : String(node);
}

function wrapRun(container: Element, runHtml: string): string {
  const tag = container.tagName.toLowerCase();
  return LIST_TAGS.has(container.tagName.toUpperCase()) ? `<${tag}>${runHtml}</${tag}>` : runHtml;
}

const CDATA_SECTION_NODE = 4;

/**
 * The length of every element's text under `root` (text and CDATA nodes, as `textContent` reads them), from one walk.
 * A node's HTML is never shorter than its text, so an element whose text is over the piece size is split without
 * serialising it first: serialising every too-large container before descending into it wrote the same HTML once per
 * level of nesting.
 */
function textLengths(root: Element): Map<Node, number> {
  const lengths = new Map<Node, number>();
  const visit = (node: Node): number => {
    if (node.nodeType === TEXT_NODE || node.nodeType === CDATA_SECTION_NODE) return (node as CharacterData).data.length;
    if (node.nodeType !== ELEMENT_NODE) return 0;
    let length = 0;
    for (let child = node.firstChild; child; child = child.nextSibling) length += visit(child);
    lengths.set(node, length);
    return length;
  };
  visit(root);
  return lengths;
}

/**
 * Converts the children of `container` in runs of bounded size, splitting between blocks and, in a run of inline
 * content (a page of links), between links.
 */
function convertChildren(container: Element, pieces: MarkdownPieces, lengths: Map<Node, number>): void {
  const inList = LIST_TAGS.has(container.tagName.toUpperCase());
  let run = '';
  let runJoint: PieceJoint = 'block';
  const flush = (nextJoint: PieceJoint): void => {
    if (run.trim()) pieces.add(converter.translate(wrapRun(container, run)).trim(), runJoint);
    run = '';
    runJoint = nextJoint;
  };
  for (let child = container.firstChild; child; child = child.nextSibling) {
    const tag = tagOf(child);
    const splittable = !inList && tag !== undefined && (SPLITTABLE_TAGS.has(tag) || tag === PARAGRAPH_TAG);
    const html = splittable && (lengths.get(child) ?? 0) > PIECE_HTML_CHARS ? undefined : nodeHtml(child);
    if (html === undefined || (splittable && html.length > PIECE_HTML_CHARS)) {
      flush('block');
      convertChildren(child as Element, pieces, lengths);
      runJoint = 'block';
      continue;
    }
    if (run.length + html.length > PIECE_HTML_CHARS && isBlock(child)) flush('block');
    run += html;
    if (run.length > PIECE_HTML_CHARS && !inList) {
      const joint = inlineCutAfter(child);
      if (joint) flush(joint);
    }
  }
  flush('block');
}

/** The children of an element as GitHub-flavoured markdown (ATX headings, fenced code, pipe tables). */
export function elementToMarkdown(element: Element): string {
  const pieces = new MarkdownPieces();
  convertChildren(element, pieces, textLengths(element));
  return pieces.toString();
}
