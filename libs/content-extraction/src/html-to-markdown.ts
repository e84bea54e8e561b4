import { nodesToMarkdown } from './dom-markdown';
import { CDATA_SECTION_NODE, ELEMENT_NODE, TEXT_NODE } from './dom-node-types';

// Markdown as node-html-markdown wrote it (dom-markdown.ts writes the same bytes), converted in pieces of about this
// many characters (text and tags, contentSizes). The pieces bounded that library's quadratic cost (it read its whole
// growing output back for every link: 12 s on a page of 10k links). dom-markdown.ts is linear without them, but the
// markdown they join to is what extraction has always returned: converted whole, 13 pages of the benchmark sets
// come out different at a joint.
const PIECE_CHARS = 16_000;

// Containers whose children can be converted in separate runs without changing the markdown: block wrappers,
// and unnumbered lists, re-wrapped in their own tag. Ordered lists stay whole: the converter ignores `start`,
// so a split one would restart its numbering.
const SPLITTABLE_TAGS = new Set(['DIV', 'SECTION', 'ARTICLE', 'MAIN', 'BODY', 'HEADER', 'FOOTER', 'ASIDE', 'BLOCKQUOTE', 'UL', 'DL']);
const LIST_TAGS = new Set(['UL', 'DL']);
type ListTag = 'UL' | 'DL';
// A paragraph adds only blank lines around its inline content, so a long one is converted as that content.
const PARAGRAPH_TAG = 'P';
const BLOCK_TAGS = new Set([
  ...SPLITTABLE_TAGS, 'P', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'PRE', 'TABLE', 'FIGURE', 'HR', 'LI', 'DT', 'DD', 'DETAILS', 'NAV',
]);

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

/**
 * The size of every element under `root` as the piece limit counts it, from one walk: its text (text and CDATA
 * nodes, as `textContent` reads them) and the length of the start and end tags of every element in it without their
 * attributes, a little less than its HTML.
 */
function contentSizes(root: Element): Map<Node, number> {
  const sizes = new Map<Node, number>();
  const visit = (node: Node): number => {
    if (node.nodeType === TEXT_NODE || node.nodeType === CDATA_SECTION_NODE) return (node as CharacterData).data.length;
    if (node.nodeType !== ELEMENT_NODE) return 0;
    let size = 2 * (node as Element).tagName.length + 5;
    for (let child = node.firstChild; child; child = child.nextSibling) size += visit(child);
    sizes.set(node, size);
    return size;
  };
  visit(root);
  return sizes;
}

/** Anything but a text node of white space alone (a run of those converts to nothing and joins nothing). */
function hasContent(node: Node): boolean {
  return node.nodeType !== TEXT_NODE || /\S/.test((node as Text).data);
}

/**
 * Converts the children of `container` in runs of bounded size, splitting between blocks and, in a run of inline
 * content (a page of links), between links.
 */
function convertChildren(container: Element, pieces: MarkdownPieces, sizes: Map<Node, number>): void {
  // A list's runs are written under the list's tag, so its items keep their list; any other run under no element.
  const containerTag = container.tagName.toUpperCase();
  const listTag: ListTag | '' = LIST_TAGS.has(containerTag) ? (containerTag as ListTag) : '';
  const inList = listTag !== '';
  let run: Node[] = [];
  let runSize = 0;
  let runJoint: PieceJoint = 'block';
  const flush = (nextJoint: PieceJoint): void => {
    if (run.some(hasContent)) pieces.add(nodesToMarkdown(run, listTag).trim(), runJoint);
    run = [];
    runSize = 0;
    runJoint = nextJoint;
  };
  for (let child = container.firstChild; child; child = child.nextSibling) {
    const tag = tagOf(child);
    const splittable = !inList && tag !== undefined && (SPLITTABLE_TAGS.has(tag) || tag === PARAGRAPH_TAG);
    const size = sizes.get(child) ?? (child.nodeType === TEXT_NODE ? (child as Text).data.length : 0);
    if (splittable && size > PIECE_CHARS) {
      flush('block');
      convertChildren(child as Element, pieces, sizes);
      runJoint = 'block';
      continue;
    }
    if (runSize + size > PIECE_CHARS && isBlock(child)) flush('block');
    run.push(child);
    runSize += size;
    if (runSize > PIECE_CHARS && !inList) {
      const joint = inlineCutAfter(child);
      if (joint) flush(joint);
    }
  }
  flush('block');
}

/** The children of an element as GitHub-flavoured markdown (ATX headings, fenced code, pipe tables). */
export function elementToMarkdown(element: Element): string {
  // The parser leaves a text node at every entity ("a &lt;b&gt;" is three), where node-html-parser's one: the
  // converter escapes a line start per text node, so neighbours are joined first.
  element.normalize();
  const pieces = new MarkdownPieces();
  convertChildren(element, pieces, contentSizes(element));
  return pieces.toString();
}
