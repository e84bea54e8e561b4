import { ELEMENT_NODE, TEXT_NODE } from './dom-node-types';

// Elements that start a new line in rendered text. Everything else is inline and joins its neighbours without
// an added space, so "<b>Hel</b>lo" stays one word, as a browser shows it.
const BLOCK_TAGS = new Set([
  'ADDRESS', 'ARTICLE', 'ASIDE', 'BLOCKQUOTE', 'BODY', 'CAPTION', 'DD', 'DETAILS', 'DIALOG', 'DIV', 'DL', 'DT',
  'FIELDSET', 'FIGCAPTION', 'FIGURE', 'FOOTER', 'FORM', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'HEADER', 'HGROUP',
  'HR', 'HTML', 'LI', 'MAIN', 'NAV', 'OL', 'P', 'PRE', 'SECTION', 'SUMMARY', 'TABLE', 'TBODY', 'TFOOT', 'THEAD',
  'TR', 'UL', 'CENTER',
]);
const PARAGRAPH_TAGS = new Set(['P', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'PRE', 'BLOCKQUOTE', 'TABLE', 'UL', 'OL', 'FIGURE', 'DL']);
const SKIPPED_TAGS = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'SVG', 'BUTTON', 'SELECT', 'OPTION', 'INPUT', 'TEXTAREA', 'IFRAME', 'OBJECT', 'CANVAS']);

/**
 * Renders an element as plain text: blank lines between paragraphs, single newlines between other blocks and
 * table rows, cells separated by " | ", whitespace collapsed except inside <pre>.
 */
export function elementToText(root: Element): string {
  const parts: string[] = [];
  // Pending break before the next text: 0 none, 1 newline, 2 blank line.
  let pendingBreak = 0;
  let started = false;

  const emit = (text: string): void => {
    if (started && pendingBreak > 0) parts.push(pendingBreak === 2 ? '\n\n' : '\n');
    pendingBreak = 0;
    parts.push(text);
    started = true;
  };
  const requestBreak = (strength: number): void => {
    if (strength > pendingBreak) pendingBreak = strength;
  };

  const walk = (node: Node, preformatted: boolean): void => {
    if (node.nodeType === TEXT_NODE) {
      const value = node.nodeValue ?? '';
      if (preformatted) {
        if (value) emit(value);
        return;
      }
      const collapsed = value.replace(/\s+/g, ' ');
      if (collapsed === ' ') {
        if (started && pendingBreak === 0 && !parts[parts.length - 1].endsWith(' ')) parts.push(' ');
        return;
      }
      if (collapsed) emit(pendingBreak > 0 || !started || parts[parts.length - 1].endsWith(' ') ? collapsed.trimStart() : collapsed);
      return;
    }
    if (node.nodeType !== ELEMENT_NODE) return;
    const element = node as Element;
    const tag = element.tagName.toUpperCase();
    if (SKIPPED_TAGS.has(tag)) return;
    if (tag === 'BR') {
      requestBreak(1);
      return;
    }
    if (tag === 'TD' || tag === 'TH') {
      if (element.previousElementSibling && started && pendingBreak === 0) parts.push(' | ');
    }
    const block = BLOCK_TAGS.has(tag);
    if (block) requestBreak(PARAGRAPH_TAGS.has(tag) ? 2 : 1);
    const childPreformatted = preformatted || tag === 'PRE';
    for (let child = element.firstChild; child; child = child.nextSibling) walk(child, childPreformatted);
    if (block) requestBreak(PARAGRAPH_TAGS.has(tag) ? 2 : 1);
  };

  walk(root, false);
  return parts
    .join('')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
