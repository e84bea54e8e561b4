// Precision filters on the chosen content root. Readability keeps whole subtrees, so blocks that sit inside
// the article but are not its text survive: "Read more: <link>" lines between paragraphs, lists of further
// links, picture captions and credits, and the headings those blocks leave behind. They are found by
// structure (link density, element kind), never by their words, so that they work in every language.

import { CDATA_SECTION_NODE, ELEMENT_NODE, TEXT_NODE } from './dom-node-types';
import { nonSpaceLength } from './markup-words';

const LINK_BLOCK_TAGS = new Set(['p', 'li', 'dd', 'dt', 'h2', 'h3', 'h4', 'h5', 'h6']);
// A block whose text is mostly link text is a pointer elsewhere, not part of the article's text.
const MAX_LINK_SHARE = 0.7;
const HEADING_RANK: Record<string, number> = { H1: 1, H2: 2, H3: 3, H4: 4, H5: 5, H6: 6 };
// Longer "headings" are markup misuse (a whole article inside <h2>) and are treated as text.
const MAX_HEADING_CHARS = 200;
const LIST_TAGS = new Set(['UL', 'OL', 'DL']);

// Addresses that are not a page to go to: an e-mail address or a phone number is the text itself.
const NON_PAGE_HREF = /^\s*(?:mailto|tel):/i;

/**
 * Whether an element is a link to another page: an `<a>` with an address. An `<a name>` without one is an anchor
 * (a target old pages wrap around a heading or a paragraph), and a mailto: or tel: link is a contact address.
 */
function isPointer(element: Element): boolean {
  if (element.localName.toLowerCase() !== 'a') return false;
  const href = element.getAttribute('href');
  return href !== null && !NON_PAGE_HREF.test(href);
}

interface LinkBlock {
  element: Element;
  /** Characters of its text, spaces left out. */
  textLength: number;
  /** Characters of the text of the links inside it (a link inside a link counts twice), spaces left out. */
  linkTextLength: number;
}

/**
 * The candidate blocks under `root` in document order, with their text and link text lengths, from one walk of the
 * tree: asking each block for its text and its links would read nested blocks (dd > p, li > li) again and again.
 * The lengths stay right while blocks are removed in this order: a removal changes only its ancestors, which come
 * before it.
 */
function linkBlocksOf(root: Element): LinkBlock[] {
  const blocks: LinkBlock[] = [];
  const visit = (element: Element): { text: number; links: number } => {
    const name = element.localName.toLowerCase();
    const block = LINK_BLOCK_TAGS.has(name) ? { element, textLength: 0, linkTextLength: 0 } : null;
    if (block) blocks.push(block);
    const counts = { text: 0, links: 0 };
    for (let child = element.firstChild; child; child = child.nextSibling) {
      if (child.nodeType === TEXT_NODE || child.nodeType === CDATA_SECTION_NODE) counts.text += nonSpaceLength((child as CharacterData).data);
      else if (child.nodeType === ELEMENT_NODE) {
        const inner = visit(child as Element);
        counts.text += inner.text;
        counts.links += inner.links + (isPointer(child as Element) ? inner.text : 0);
      }
    }
    if (block) {
      block.textLength = counts.text;
      block.linkTextLength = counts.links;
    }
    return counts;
  };
  for (let child = root.firstElementChild; child; child = child.nextElementSibling) visit(child);
  return blocks;
}

// A heading, or a short line ending in a colon ("Read more:", "Related articles:"), right before a link list that is
// removed introduces those links: without them it introduces nothing. (Not before a single link line: "Download it
// here:" before a button, or a lead-in before a click-to-tweet quote, is the article's own sentence.)
const MAX_LABEL_CHARS = 80;
const LABEL_TAGS = new Set(['H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'P', 'DIV', 'SPAN', 'STRONG', 'B', 'DT']);

/** The element right before `element` with only white space between them, when it is a label of the links after it. */
function labelBefore(element: Element): Element | null {
  let node = element.previousSibling;
  while (node && node.nodeType !== ELEMENT_NODE) {
    if ((node.nodeType === TEXT_NODE || node.nodeType === CDATA_SECTION_NODE) && (node as CharacterData).data.trim()) return null;
    node = node.previousSibling;
  }
  if (!node) return null;
  const label = node as Element;
  const tag = label.tagName.toUpperCase();
  if (!LABEL_TAGS.has(tag)) return null;
  const text = (label.textContent ?? '').replace(/\s+/g, ' ').trim();
  if (!text || nonSpaceLength(text) > MAX_LABEL_CHARS || label.querySelector('a, img, picture, video, iframe')) return null;
  return HEADING_RANK[tag] || /[:：]$/.test(text) ? label : null;
}

function removeLinkBlocks(root: Element): void {
  const labels: Element[] = [];
  for (const { element: block, textLength, linkTextLength } of linkBlocksOf(root)) {
    if (!block.parentNode || textLength === 0) continue;
    if (linkTextLength > textLength * MAX_LINK_SHARE) {
      const parent = block.parentElement;
      block.remove();
      if (parent && LIST_TAGS.has(parent.tagName.toUpperCase()) && !parent.firstElementChild) {
        const listLabel = labelBefore(parent);
        parent.remove();
        if (listLabel) labels.push(listLabel);
      }
    }
  }
  for (const label of labels) label.remove();
}

/** Headings with no text after them before the next heading of the same or a higher rank, or the end. */
function removeDanglingHeadings(root: Element): void {
  const open: Element[] = [];
  const dangling: Element[] = [];
  const visit = (element: Element): void => {
    const rank = HEADING_RANK[element.tagName.toUpperCase()];
    if (rank && (element.textContent ?? '').length <= MAX_HEADING_CHARS) {
      while (open.length && HEADING_RANK[open[open.length - 1].tagName.toUpperCase()] >= rank) dangling.push(open.pop() as Element);
      open.push(element);
      return;
    }
    for (let child = element.firstChild; child; child = child.nextSibling) {
      if (child.nodeType === TEXT_NODE && (child.nodeValue ?? '').trim()) open.length = 0;
      else if (child.nodeType === ELEMENT_NODE) visit(child as Element);
    }
  };
  visit(root);
  dangling.push(...open);
  for (const heading of dangling) heading.remove();
}

const COPYRIGHT_SIGN = '\u00a9';
const COPYRIGHT_BLOCK_TAGS = 'p, div, small, li, span, address';
// A block holding other blocks is a container, whatever a line of it says.
const INNER_BLOCKS = 'p, div, li, table';
const MAX_COPYRIGHT_BLOCK_CHARS = 300;

/**
 * Short blocks that state a copyright ("©": a site's footer line, a picture's rights holder) are not the article's
 * text. Only blocks without blocks inside: a short page's whole content may sit in one block beside its © line.
 */
function removeCopyrightLines(root: Element): void {
  if (!(root.textContent ?? '').includes(COPYRIGHT_SIGN)) return;
  for (const block of Array.from(root.querySelectorAll(COPYRIGHT_BLOCK_TAGS))) {
    if (!block.parentNode) continue;
    const text = block.textContent ?? '';
    if (text.includes(COPYRIGHT_SIGN) && nonSpaceLength(text) <= MAX_COPYRIGHT_BLOCK_CHARS && !block.querySelector(INNER_BLOCKS)) block.remove();
  }
}

/** Removes captions, copyright lines, link lines and link lists from the content, then the headings left without text. */
export function pruneContent(root: Element): void {
  for (const caption of Array.from(root.querySelectorAll('figcaption'))) caption.remove();
  removeCopyrightLines(root);
  removeLinkBlocks(root);
  removeDanglingHeadings(root);
}
