import { DomUtils, parseDocument } from 'htmlparser2';
import { completeDocument } from './parse-document';

/**
 * htmlparser2's tree of a page: plain objects, several times cheaper to build than linkedom's DOM, which is built
 * by the same parser with the same options. The page is read here first (its metadata, its links, its boilerplate
 * blocks); only what is left after boilerplate removal is serialised and built as a DOM for the content scorer.
 */
export type MarkupDocument = ReturnType<typeof parseDocument>;
export type MarkupElement = NonNullable<ReturnType<typeof DomUtils.findOne>>;
export type MarkupNode = MarkupDocument['children'][number];

// As linkedom parses (parse-from-string.js, patched): entities decoded, attribute names lowercased as browsers do
// (`<A HREF>` has an href; linkedom keeps SVG's own case, which nothing read from this tree depends on).
const LINKEDOM_PARSER_OPTIONS = { lowerCaseAttributeNames: true, decodeEntities: true };

/** Heading elements, by their names in the markup tree. */
export const HEADING_TAGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

/** The tree of a page's markup, completed as for linkedom (see `completeDocument`). */
export function parseMarkup(html: string): MarkupDocument {
  return parseDocument(completeDocument(html), LINKEDOM_PARSER_OPTIONS);
}

export function isElement(node: Parameters<typeof DomUtils.isTag>[0]): node is MarkupElement {
  return DomUtils.isTag(node);
}

/** The elements that `test` accepts, in document order. */
export function findElements(document: MarkupDocument, test: (element: MarkupElement) => boolean): MarkupElement[] {
  return DomUtils.findAll(test, document.children);
}

export function firstElementChild(node: MarkupDocument | MarkupElement): MarkupElement | undefined {
  return node.children.find(isElement);
}

/**
 * The element linkedom's `document.body` returns: the element after <head> in the first element of the page, when
 * it is a <body> (linkedom would otherwise make an empty one).
 */
export function bodyOf(document: MarkupDocument): MarkupElement | undefined {
  const root = firstElementChild(document);
  if (!root) return undefined;
  const elements = root.children.filter(isElement);
  const afterHead = elements[0]?.name === 'head' ? elements[1] : elements[0];
  return afterHead?.name === 'body' ? afterHead : undefined;
}

/** The text of a node and its descendants, as `textContent`. */
export function textOf(node: MarkupNode | MarkupDocument): string {
  return DomUtils.textContent(node);
}

/** The markup of the tree again, entities re-encoded only where HTML needs them. */
export function markupHtml(document: MarkupDocument): string {
  return DomUtils.getOuterHTML(document, { encodeEntities: 'utf8' });
}
