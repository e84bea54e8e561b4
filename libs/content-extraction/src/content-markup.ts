import { DomUtils } from 'htmlparser2';
import { firstElementChild, isElement, MarkupDocument, MarkupElement, MarkupNode, markupHtml } from './markup-tree';

// What the content steps (Readability, the pruner, text, markdown, images) get of a page, once its metadata and
// links are read and its boilerplate is removed. Every node handed to them costs: linkedom builds each element,
// attribute and text node as an object and Readability walks them several times. So they get only what they read.

// Whitespace-only text beside a block-level element is not rendered (a browser collapses it at a line's start or
// end), yet it is a third of a page's nodes once indentation and the blanks left by stripped scripts are counted.
// Inline-level elements keep their spaces.
const BLOCK_TAGS = new Set([
  'html', 'head', 'body', 'div', 'p', 'ul', 'ol', 'li', 'dl', 'dt', 'dd', 'table', 'thead', 'tbody', 'tfoot', 'tr',
  'td', 'th', 'caption', 'colgroup', 'col', 'section', 'article', 'header', 'footer', 'nav', 'aside', 'main',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'form', 'fieldset', 'figure', 'figcaption', 'blockquote', 'hr', 'br',
  'address', 'details', 'summary', 'center',
]);
// Elements whose whitespace is content.
const PREFORMATTED_TAGS = new Set(['pre', 'textarea', 'listing', 'xmp', 'plaintext']);
const WHITESPACE = /^\s+$/;

// The attributes the content steps read: Readability (class, id, style, hidden, role, aria-hidden, aria-modal,
// href, rel, itemprop, lang, dir, colspan, rowspan, summary, datatable), the markdown writer (href, src,
// alt, title, class) and the image and link steps. Media and embeds keep all theirs: Readability looks through every
// attribute of an image for a lazy-loaded source and of an embed for a video address; meta tags keep theirs for
// Readability's metadata. The rest (data-*, event handlers, presentational attributes) are a third of a cleaned
// page's attributes and never read.
const READ_ATTRIBUTES = new Set([
  'class', 'id', 'style', 'hidden', 'role', 'aria-hidden', 'aria-modal', 'href', 'rel', 'title', 'alt', 'src',
  'srcset', 'itemprop', 'lang', 'dir', 'colspan', 'rowspan', 'summary', 'datatable', 'datetime',
]);
const ALL_ATTRIBUTE_TAGS = new Set(['img', 'picture', 'figure', 'source', 'video', 'audio', 'track', 'object', 'embed', 'iframe', 'meta', 'base']);

// What the content steps read in <head>: the title, <base>, and the meta tags of Readability's own metadata (its
// title and byline steer what it drops), which it finds by name or property: og:title, dc.creator, author,
// article:published_time… The rest (viewport, robots, icons, styles, preloads, alternates; read as metadata
// before) is a tenth of a cleaned page's elements.
const CONTENT_HEAD_TAGS = new Set(['title', 'base']);
const READABILITY_META = /author|creator|description|title|site_name|pub-date|published_time/i;

const isContentHeadElement = (node: MarkupNode): boolean =>
  isElement(node) &&
  (CONTENT_HEAD_TAGS.has(node.name) ||
    (node.name === 'meta' && READABILITY_META.test(`${node.attribs['name'] ?? ''} ${node.attribs['property'] ?? ''}`)));

const isBlock = (node: MarkupNode | null): boolean => !!node && isElement(node) && BLOCK_TAGS.has(node.name);

function dropHeadExtras(document: MarkupDocument): void {
  const root = firstElementChild(document);
  const head = root && firstElementChild(root);
  if (head?.name !== 'head') return;
  for (const child of head.children.filter((node) => !isContentHeadElement(node))) {
    DomUtils.removeElement(child);
  }
}

function keepReadAttributes(element: MarkupElement): void {
  if (ALL_ATTRIBUTE_TAGS.has(element.name)) return;
  const names = Object.keys(element.attribs);
  if (names.every((name) => READ_ATTRIBUTES.has(name))) return;
  const kept: Record<string, string> = {};
  for (const name of names) if (READ_ATTRIBUTES.has(name)) kept[name] = element.attribs[name];
  element.attribs = kept;
}

/**
 * Removes whitespace-only text that touches a block element's start or end tag (outside preformatted text) and
 * the attributes nothing reads, in one walk.
 */
function trim(parent: MarkupDocument | MarkupElement, parentIsBlock: boolean): void {
  const unrendered = parent.children.filter(
    (child) =>
      DomUtils.isText(child) &&
      WHITESPACE.test(child.data) &&
      (isBlock(child.prev) || isBlock(child.next) || (parentIsBlock && (!child.prev || !child.next))),
  );
  for (const child of unrendered) DomUtils.removeElement(child);
  for (const child of parent.children) {
    if (!isElement(child)) continue;
    keepReadAttributes(child);
    if (!PREFORMATTED_TAGS.has(child.name)) trim(child, BLOCK_TAGS.has(child.name));
  }
}

/** The markup for the content steps: the (boilerplate-free) tree without what they never read, serialised. */
export function contentMarkup(document: MarkupDocument): string {
  dropHeadExtras(document);
  trim(document, true);
  return markupHtml(document);
}
