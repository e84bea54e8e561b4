/**
 * DOM nodes to markdown, written to match node-html-markdown 2.0.0 byte for byte with the options extraction used
 * (bullet '-', fenced code, script/style/noscript/iframe/button/form ignored, at most two newlines in a row, the
 * library's defaults otherwise, and patches/node-html-markdown+2.0.0.patch's reading of DOM text nodes).
 *
 * The algorithm is the library's: every element has a rule (prefix, content, postfix, surrounding newlines, a
 * post-processing of the markdown its children wrote, which may remove the element), looked up by tag in the rule
 * set of the context (the page, a code block, a table, a row, a cell, a link). What the library spends per node is
 * gone: no rule objects or context objects built per element, no metadata copied per element, no pass over the
 * tree before the walk, no child arrays; the output is a list of strings, so reading back what an element wrote
 * costs the length of that, not of the whole output.
 */
import { ELEMENT_NODE, TEXT_NODE } from './dom-node-types';
import { isSpace } from './markup-words';

/** The rule set children are looked up in: the library's translator collections. */
const PAGE = 0;
const CODE_BLOCK = 1;
const TABLE = 2;
const TABLE_ROW = 3;
const TABLE_CELL = 4;
const LINK = 5;
type Context = typeof PAGE | typeof CODE_BLOCK | typeof TABLE | typeof TABLE_ROW | typeof TABLE_CELL | typeof LINK;

/** Text state bits, the library's `preserveWhitespace` and `noEscape` metadata. */
const PRESERVE_WHITESPACE = 1;
const NO_ESCAPE = 2;

/** Rules whose values depend on the element itself. */
type RuleKind = 'fixed' | 'ignore' | 'list-item' | 'code' | 'link' | 'image';

/** How the markdown written by an element's children is rewritten once they are done. */
type Rewrite = 'none' | 'strong' | 'strike' | 'emphasis' | 'list-item' | 'blockquote' | 'inline-code' | 'table' | 'caption' | 'row' | 'cell' | 'link';

interface Rule {
  readonly kind: RuleKind;
  readonly newlines: number;
  readonly prefix: string;
  readonly postfix: string;
  /** Written instead of the children. */
  readonly content: string | undefined;
  readonly spaceIfRepeatingChar: boolean;
  readonly noEscape: boolean;
  readonly children: Context | undefined;
  /** False: only the element's own text nodes are written (an image in a code block). */
  readonly recurse: boolean;
  readonly rewrite: Rewrite;
}

const PLAIN: Rule = {
  kind: 'fixed', newlines: 0, prefix: '', postfix: '', content: undefined, spaceIfRepeatingChar: false, noEscape: false,
  children: undefined, recurse: true, rewrite: 'none',
};
const rule = (fields: Partial<Rule>): Rule => ({ ...PLAIN, ...fields });

const BLOCK_TAGS = [
  'ADDRESS', 'ARTICLE', 'ASIDE', 'AUDIO', 'BLOCKQUOTE', 'BODY', 'CANVAS', 'CENTER', 'DD', 'DIR', 'DIV', 'DL', 'DT', 'FIELDSET',
  'FIGCAPTION', 'FIGURE', 'FOOTER', 'FORM', 'FRAMESET', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'HEADER', 'HGROUP', 'HR', 'HTML',
  'ISINDEX', 'LI', 'MAIN', 'MENU', 'NAV', 'NOFRAMES', 'NOSCRIPT', 'OL', 'OUTPUT', 'P', 'PRE', 'SECTION', 'TABLE', 'TBODY', 'TD',
  'TFOOT', 'TH', 'THEAD', 'TR', 'UL',
];
// Readability already kept only content; images appear in the images list, not as markdown noise. The rest are
// the library's own list.
const IGNORED_TAGS = [
  'SCRIPT', 'STYLE', 'NOSCRIPT', 'IFRAME', 'BUTTON', 'FORM',
  'AREA', 'BASE', 'COL', 'COMMAND', 'EMBED', 'HEAD', 'INPUT', 'KEYGEN', 'LINK', 'META', 'PARAM', 'SOURCE', 'TRACK', 'WBR',
];
const HEADING_TAGS = ['H1', 'H2', 'H3', 'H4', 'H5', 'H6'];

const IGNORE = rule({ kind: 'ignore' });
const STRONG = rule({ spaceIfRepeatingChar: true, rewrite: 'strong' });
const STRIKE = rule({ spaceIfRepeatingChar: true, rewrite: 'strike' });
const EMPHASIS = rule({ spaceIfRepeatingChar: true, rewrite: 'emphasis' });
const LINK_RULE = rule({ kind: 'link' });
const IMAGE = rule({ kind: 'image' });
const CELL = rule({ prefix: ' ', postfix: ' |', children: TABLE_CELL, rewrite: 'cell' });

function ruleSet(entries: Array<[string[], Rule]>): Map<string, Rule> {
  const rules = new Map<string, Rule>();
  for (const [tags, tagRule] of entries) for (const tag of tags) rules.set(tag, tagRule);
  return rules;
}

const EMPHASIS_RULES: Array<[string[], Rule]> = [[['STRONG', 'B'], STRONG], [['DEL', 'S', 'STRIKE'], STRIKE], [['EM', 'I'], EMPHASIS]];

const RULES: readonly Map<string, Rule>[] = [
  // PAGE
  ruleSet([
    [BLOCK_TAGS, rule({ newlines: 2 })],
    [IGNORED_TAGS, IGNORE],
    [['PRE'], rule({ newlines: 2, noEscape: true })],
    [['BR'], rule({ content: '  \n', recurse: false })],
    [['HR'], rule({ newlines: 2, content: '---', recurse: false })],
    ...HEADING_TAGS.map((tag): [string[], Rule] => [[tag], rule({ newlines: 2, prefix: `${'#'.repeat(Number(tag.charAt(1)))} ` })]),
    ...EMPHASIS_RULES,
    // The library gives a list one newline when it is in a list, and it always is: its own tag counts.
    [['OL', 'UL'], rule({ newlines: 1 })],
    [['LI'], rule({ kind: 'list-item', newlines: 1, rewrite: 'list-item' })],
    [['BLOCKQUOTE'], rule({ newlines: 2, rewrite: 'blockquote' })],
    [['CODE'], rule({ kind: 'code' })],
    [['TABLE'], rule({ newlines: 2, children: TABLE, rewrite: 'table' })],
    [['A'], LINK_RULE],
    [['IMG'], IMAGE],
  ]),
  // CODE_BLOCK: no markup inside fenced code, and block elements add no blank lines.
  ruleSet([
    [BLOCK_TAGS, rule({ newlines: 2 })],
    [IGNORED_TAGS, IGNORE],
    [['BR'], rule({ content: '\n', recurse: false })],
    [['HR'], rule({ newlines: 2, content: '---', recurse: false })],
    [HEADING_TAGS, rule({ newlines: 2, prefix: '[', postfix: ']' })],
    [['IMG'], rule({ recurse: false })],
    [
      [
        'DIV', 'P', 'SECTION', 'ARTICLE', 'ASIDE', 'HEADER', 'FOOTER', 'MAIN', 'NAV', 'OL', 'UL', 'LI', 'TABLE', 'THEAD', 'TBODY',
        'TFOOT', 'TR', 'TD', 'TH', 'BLOCKQUOTE', 'PRE', 'DL', 'DT', 'DD',
      ],
      PLAIN,
    ],
  ]),
  // TABLE
  ruleSet([
    [['CAPTION'], rule({ children: TABLE_CELL, rewrite: 'caption' })],
    [['TR'], rule({ prefix: '| ', postfix: '\n', children: TABLE_ROW, rewrite: 'row' })],
    [['TH', 'TD'], CELL],
  ]),
  // TABLE_ROW
  ruleSet([[['TH', 'TD'], CELL]]),
  // TABLE_CELL
  ruleSet([[['A'], LINK_RULE], ...EMPHASIS_RULES, [['IMG'], IMAGE]]),
  // LINK
  ruleSet([
    [['BR', 'HR'], rule({ content: '\n', recurse: false })],
    [['PRE'], rule({ noEscape: true })],
    ...EMPHASIS_RULES,
    [['IMG'], IMAGE],
  ]),
];

/** Elements written even when they have nothing inside (the library's "preserve" flag). */
const CONTENTLESS_TAGS = new Set(['BR', 'HR', 'IMG']);
const KEPT_WHEN_EMPTY_TAGS = new Set([...HEADING_TAGS, 'OL', 'UL', 'LI', 'CODE', 'TABLE', 'A', 'IMG', 'TD', 'TH']);

/**
 * An element has something to write: a text node, an image, a line break or rule, or an empty element of a kind kept.
 * Each element's answer is kept in `known`: the writer asks again at every level it descends, and without them a
 * deep chain of elements would be scanned once per level.
 */
function hasMarkdown(element: Element, tag: string, known: Map<Element, boolean>): boolean {
  if (CONTENTLESS_TAGS.has(tag)) return true;
  let answer = known.get(element);
  if (answer !== undefined) return answer;
  let child = element.firstChild;
  answer = child === null && KEPT_WHEN_EMPTY_TAGS.has(tag);
  for (; child !== null && !answer; child = child.nextSibling) {
    const type = child.nodeType;
    answer = type === TEXT_NODE || (type === ELEMENT_NODE && hasMarkdown(child as Element, (child as Element).tagName.toUpperCase(), known));
  }
  known.set(element, answer);
  return answer;
}

/** The numbering of the list an item is in; copied where the library copied its metadata, so items numbered there stay there. */
interface ListState {
  readonly kind: string;
  number: number;
  readonly indentLevel: number;
}

/** A table's caption, set by its caption element and read when the table is written. */
interface TableState {
  caption: string;
}

/** Only an ordered list's number is ever read, so only its copy has to be a copy. */
function separateList(list: ListState | undefined): ListState | undefined {
  return list !== undefined && list.kind === 'OL' ? { kind: list.kind, number: list.number, indentLevel: list.indentLevel } : list;
}

const NON_SPACE = /\S/;
// The library collapses every run of white space to one space; a lone space is left alone here, so most text is
// returned as it is rather than copied.
const WHITESPACE_TO_COLLAPSE = /\s\s+|[^\S ]/g;
const GLOBAL_ESCAPE = /[\\`*_~[\]]/gm;
const LINE_START_ESCAPE = /^(\s*?)((?:\+\s)|(?:[=>-])|(?:#{1,6}\s))|(?:(\d+)(\.\s))/gm;
const DOCTYPE = /^<!DOCTYPE.*>/gim;
const TRAILING_SPACES = / +$/;
const LINE_END_SPACE = /[^\S\r\n]$/m;

/**
 * The library's line-start escape. Collapsed text is one line, so the expression can only match a marker at its
 * first character past the spaces, or a number followed by a period: text with neither skips the expression's scan.
 */
function escapeLineStarts(text: string, collapsed: boolean): string {
  if (collapsed && !text.includes('.')) {
    let index = 0;
    while (text.charCodeAt(index) === 32) index++;
    const first = text.charAt(index);
    if (first !== '+' && first !== '=' && first !== '>' && first !== '-' && first !== '#') return text;
  }
  return text.replace(LINE_START_ESCAPE, '$1$3\\$2$4');
}

/** A list item's lines, broken ones indented under it, each line's trailing white space made a line break. */
function listItemMarkdown(content: string, indentLevel: number): string {
  const lines = content.trim().replace(/([^\r\n])(?:\r?\n)+(?!\s*[-*+]|\s*\d+\.|\s*\|)/g, `$1  \n${'  '.repeat(indentLevel)}`);
  // The expression below backtracks over every word; a line that does not end in white space has nothing for it.
  return LINE_END_SPACE.test(lines) ? lines.replace(/(\S+?)[^\S\r\n]+$/gm, '$1  ') : lines;
}

const isWhitespaceOnly = (text: string): boolean => !NON_SPACE.test(text);
const trimNewlines = (text: string): string => text.replace(/^\n+|\n+$/g, '');

/** The delimiter's own occurrences inside the content are dropped (unless escaped) before it is wrapped. */
const NESTED_DELIMITER: Record<string, RegExp> = {};
for (const delimiter of ['**', '~~', '_']) NESTED_DELIMITER[delimiter] = new RegExp(`([^\\\\])\\${delimiter.split('').join('\\')}`, 'gm');

/** Each line's text between delimiters, the white space next to it (one character each side) moved outside. */
function surroundWithDelimiter(content: string, delimiter: string): string {
  if (content.includes(delimiter)) content = content.replace(NESTED_DELIMITER[delimiter], '$1');
  let result = '';
  for (const { text, newline } of linesOf(content)) {
    let start = 0;
    while (start < text.length && isSpace(text.charCodeAt(start))) start++;
    if (start === text.length) {
      result += text + newline;
      continue;
    }
    let end = text.length - 1;
    while (isSpace(text.charCodeAt(end))) end--;
    const leading = start > 0 ? text[start - 1] : '';
    const trailing = end < text.length - 1 ? text[end + 1] : '';
    result += leading + delimiter + text.slice(start, end + 1) + delimiter + trailing + newline;
  }
  return result;
}

/** The lines of a text with the line break that ended each (none for a last line without one). */
function linesOf(text: string): Array<{ text: string; newline: string }> {
  const lines: Array<{ text: string; newline: string }> = [];
  let start = 0;
  for (let index = 0; index < text.length; index++) {
    const char = text.charAt(index);
    const newline = char === '\r' ? (text.charAt(index + 1) === '\n' ? '\r\n' : '\r') : char === '\n' ? '\n' : '';
    const end = newline ? index : index === text.length - 1 ? index + 1 : undefined;
    if (end === undefined) continue;
    lines.push({ text: text.slice(start, end), newline });
    start = end + newline.length;
    if (newline.length > 1) index++;
  }
  return lines;
}

/** Inline code between backticks, one more than the longest run of them inside. */
function inlineCode(content: string): string {
  let longest = '';
  for (const run of content.match(/`+/g) ?? []) if (run.length > longest.length) longest = run;
  const delimiter = `\`${longest}`;
  const padding = delimiter.length > 1 ? ' ' : '';
  return delimiter + padding + content + padding + delimiter;
}

/** A pipe table from rows written as `| cell | cell |` lines, columns padded to their widest cell. */
function pipeTable(content: string, caption: string): string | undefined {
  const rows: string[][] = [];
  const widths: number[] = [];
  for (const line of linesOf(content)) {
    const row = line.text.replace(/^(?:\|)?(.+)\s*\|\s*$/, '$1');
    if (!row) continue;
    rows.push(row.split(' |').map((cell, index) => {
      const trimmed = cell.trim();
      if (widths.length < index + 1 || widths[index] < trimmed.length) widths[index] = trimmed.length;
      return trimmed;
    }));
  }
  if (rows.length < 1) return undefined;
  let result = caption ? `${caption}\n` : '';
  rows.forEach((cells, rowNumber) => {
    result += '| ';
    for (let index = 0; index < widths.length; index++) {
      const cell = cells[index] ?? '';
      result += cell + ' '.repeat(Math.max(0, widths[index] - cell.length)) + ' |' + (index < widths.length - 1 ? ' ' : '');
    }
    result += '\n';
    if (rowNumber === 0) result += `|${widths.map((width) => ` ${'-'.repeat(width)} |`).join('')}\n`;
  });
  return result;
}

const HREF_SYMBOLS = /[()_*]/g;
const HREF_ESCAPES: Record<string, string> = { '(': '%28', ')': '%29', _: '%5F', '*': '%2A' };

/** Rewritten content; `undefined` removes the element with everything it wrote. */
type Rewritten = string | undefined;

class MarkdownWriter {
  /** The markdown so far, in pieces: an element's output is the pieces from the count before it, read back cheaply. */
  private readonly parts: string[] = [];
  /** Whether each element asked about has something to write (hasMarkdown). */
  private readonly known = new Map<Element, boolean>();

  markdown(): string {
    return this.parts.join('');
  }

  writeNodes(nodes: readonly Node[], listTag: string): void {
    const list: ListState | undefined = listTag === 'UL' ? { kind: listTag, number: 0, indentLevel: 0 } : undefined;
    const rootRule = listTag ? RULES[PAGE].get(listTag) : undefined;
    const written = nodes.some((node) => node.nodeType === TEXT_NODE || (node.nodeType === ELEMENT_NODE && hasMarkdown(node as Element, (node as Element).tagName.toUpperCase(), this.known)));
    // A list root with no nodes at all would write only a newline, trimmed off at the end.
    if (!written) return;
    if (rootRule) this.newlines(rootRule.newlines);
    for (const node of nodes) this.writeNode(node, PAGE, 0, list, undefined);
    if (rootRule) this.newlines(rootRule.newlines);
  }

  private writeNode(node: Node, context: Context, textState: number, list: ListState | undefined, table: TableState | undefined): void {
    const type = node.nodeType;
    if (type === TEXT_NODE) {
      this.writeText((node as Text).data, textState);
    } else if (type === ELEMENT_NODE) {
      const tagName = (node as Element).tagName;
      const tag = tagName.toUpperCase();
      if (hasMarkdown(node as Element, tag, this.known)) this.writeElement(node as Element, tagName, tag, context, textState, list, table);
    }
  }

  private writeChildren(element: Element, context: Context, textState: number, list: ListState | undefined, table: TableState | undefined): void {
    for (let child = element.firstChild; child !== null; child = child.nextSibling) this.writeNode(child, context, textState, list, table);
  }

  private writeElement(
    element: Element, tagName: string, tag: string, context: Context, textState: number, list: ListState | undefined, table: TableState | undefined,
  ): void {
    switch (tag) {
      case 'UL':
      case 'OL':
        list = { kind: tagName, number: 0, indentLevel: (list?.indentLevel ?? -1) + 1 };
        break;
      case 'LI':
        if (list?.kind === 'OL') list.number++;
        break;
      case 'PRE':
        textState |= PRESERVE_WHITESPACE;
        list = separateList(list);
        break;
      case 'TABLE':
        table = { caption: '' };
        list = separateList(list);
        break;
    }
    const elementRule = RULES[context].get(tag);
    if (elementRule === undefined) {
      this.writeChildren(element, context, textState, list, table);
      return;
    }
    let { prefix, content } = elementRule;
    let indentLevel = 0;
    switch (elementRule.kind) {
      case 'ignore':
        return;
      case 'list-item':
        indentLevel = list?.indentLevel || 0;
        prefix = '  '.repeat(indentLevel) + (list?.kind === 'OL' ? `${list.number}. ` : '- ');
        break;
      case 'code': {
        const parent = element.parentNode as Element | null;
        const parentTag = parent?.tagName;
        const first = parent?.firstChild;
        if ((parentTag === 'PRE' || parentTag === 'WRAPPED-PRE') && (!first || first.nextSibling === null)) {
          const language = element.getAttribute('class')?.match(/language-(\S+)/)?.[1] || '';
          return this.writeWithRule(element, tagName, context, textState, list, table, 0, `\`\`\`${language}\n`, '\n```', undefined, false, true, CODE_BLOCK, true, 'none', 0);
        }
        return this.writeWithRule(element, tagName, context, textState, list, table, 0, '', '', undefined, true, true, undefined, true, 'inline-code', 0);
      }
      case 'link': {
        const href = element.getAttribute('href');
        if (!href) {
          this.writeChildren(element, context, textState, list, table);
          return;
        }
        const encodedHref = href.replace(HREF_SYMBOLS, (symbol) => HREF_ESCAPES[symbol]);
        if (element.textContent === href) {
          content = `<${encodedHref}>`;
          break;
        }
        const title = element.getAttribute('title');
        const postfix = `](${encodedHref}${title ? ` "${title}"` : ''})`;
        return this.writeWithRule(element, tagName, context, textState, list, table, 0, '[', postfix, undefined, false, false, LINK, true, 'link', 0);
      }
      case 'image': {
        const source = element.getAttribute('src') || '';
        if (!source || /^data:/i.test(source)) return;
        const title = element.getAttribute('title') || '';
        content = `![${element.getAttribute('alt') || ''}](${source}${title && ` "${title}"`})`;
        break;
      }
    }
    this.writeWithRule(
      element, tagName, context, textState, list, table, elementRule.newlines, prefix, elementRule.postfix, content, elementRule.spaceIfRepeatingChar,
      elementRule.noEscape, elementRule.children, elementRule.recurse, elementRule.rewrite, indentLevel,
    );
  }

  private writeWithRule(
    element: Element, tagName: string, context: Context, textState: number, list: ListState | undefined, table: TableState | undefined,
    newlines: number, prefix: string, postfix: string, content: string | undefined, spaceIfRepeatingChar: boolean, noEscape: boolean,
    children: Context | undefined, recurse: boolean, rewrite: Rewrite, indentLevel: number,
  ): void {
    if (noEscape && !(textState & NO_ESCAPE)) {
      textState |= NO_ESCAPE;
      list = separateList(list);
    }
    if (children !== undefined) {
      context = children;
      list = separateList(list);
    }
    const parts = this.parts;
    const outerStart = parts.length;
    if (newlines) this.newlines(newlines);
    this.append(prefix, false);
    if (content !== undefined) {
      this.append(content, spaceIfRepeatingChar);
    } else {
      const start = parts.length;
      if (recurse) {
        this.writeChildren(element, context, textState, list, table);
      } else {
        for (let child = element.firstChild; child !== null; child = child.nextSibling) if (child.nodeType === TEXT_NODE) this.writeText((child as Text).data, textState);
      }
      if (rewrite !== 'none') {
        const rewritten = this.rewrite(rewrite, this.writtenSince(start), indentLevel, table);
        if (rewritten === undefined) {
          if (tagName === 'LI' && list?.number) list.number--;
          parts.length = outerStart;
          return;
        }
        parts.length = start;
        this.append(rewritten, spaceIfRepeatingChar);
      }
    }
    this.append(postfix, false);
    if (newlines) this.newlines(newlines);
  }

  private rewrite(rewrite: Rewrite, content: string, indentLevel: number, table: TableState | undefined): Rewritten {
    switch (rewrite) {
      case 'strong':
        return isWhitespaceOnly(content) ? undefined : surroundWithDelimiter(content, '**');
      case 'strike':
        return isWhitespaceOnly(content) ? undefined : surroundWithDelimiter(content, '~~');
      case 'emphasis':
        return isWhitespaceOnly(content) ? undefined : surroundWithDelimiter(content, '_');
      case 'list-item':
        return isWhitespaceOnly(content) ? undefined : listItemMarkdown(content, indentLevel);
      case 'blockquote':
        return trimNewlines(content).replace(/^(>*)[^\S\r\n]?/gm, '>$1 ');
      case 'inline-code':
        return inlineCode(content);
      case 'table':
        return pipeTable(content, (table as TableState).caption);
      case 'caption': {
        const caption = content.replace(/(?:\r?\n)+/g, ' ').trim();
        if (caption) (table as TableState).caption = `__${caption}__`;
        return undefined;
      }
      case 'row':
        return / \|\s*$/.test(content) ? content : undefined;
      case 'cell':
        return trimNewlines(content).replace('|', '\\|').replace(/(?:\r?\n)+/g, ' ').trim();
      case 'link':
        return content.replace(/(?:\r?\n)+/g, ' ');
      case 'none':
        return content;
    }
  }

  private writeText(data: string, textState: number): void {
    const preserveWhitespace = (textState & PRESERVE_WHITESPACE) !== 0;
    if (!preserveWhitespace && isWhitespaceOnly(data)) {
      if (this.parts.length > 0 && !isSpace(this.lastCharCode())) this.parts.push(' ');
      return;
    }
    let text = preserveWhitespace ? data : data.replace(WHITESPACE_TO_COLLAPSE, ' ');
    if (!(textState & NO_ESCAPE)) {
      text = escapeLineStarts(text.replace(GLOBAL_ESCAPE, '\\$&'), !preserveWhitespace);
      if (text.includes('<!')) text = text.replace(DOCTYPE, '');
    }
    if (!preserveWhitespace && text) {
      // Leading white space is dropped only when the text began on a new line; trailing white space is kept for
      // the inline element that may follow.
      if (data.charCodeAt(0) === 10 && text.charCodeAt(0) === 32) text = text.slice(1);
      if (!isSpace(data.charCodeAt(data.length - 1)) && text.endsWith(' ')) text = text.replace(TRAILING_SPACES, '');
    }
    this.append(text, false);
  }

  private append(text: string, spaceIfRepeatingChar: boolean): void {
    if (!text) return;
    if (spaceIfRepeatingChar && this.parts.length > 0 && this.lastCharCode() === text.charCodeAt(0)) this.parts.push(' ');
    this.parts.push(text);
  }

  /** Line breaks up to `count` at the end of the output, counting those already in its last ten characters' trailing white space. */
  private newlines(count: number): void {
    let newlines = 0;
    let seen = 0;
    const parts = this.parts;
    scan: for (let index = parts.length - 1; index >= 0; index--) {
      const part = parts[index];
      for (let position = part.length - 1; position >= 0; position--) {
        const code = part.charCodeAt(position);
        if (seen === 10 || !isSpace(code)) break scan;
        seen++;
        if (code === 10 || code === 13) newlines++;
      }
    }
    if (count > newlines) this.parts.push(count - newlines === 1 ? '\n' : '\n'.repeat(count - newlines));
  }

  private lastCharCode(): number {
    const last = this.parts[this.parts.length - 1];
    return last.charCodeAt(last.length - 1);
  }

  private writtenSince(start: number): string {
    const parts = this.parts;
    if (start === parts.length) return '';
    if (start === parts.length - 1) return parts[start];
    return parts.slice(start).join('');
  }
}

/**
 * Markdown for `nodes` as the children of one root: no element (`listTag` empty), or a list (`UL`) or definition
 * list (`DL`) whose items they are. Blank lines are at most two newlines, and the result has no newline at either end.
 */
export function nodesToMarkdown(nodes: readonly Node[], listTag: '' | 'UL' | 'DL' = ''): string {
  const writer = new MarkdownWriter();
  writer.writeNodes(nodes, listTag);
  let markdown = writer.markdown().replace(/(?:\r?\n\s*)+((?:\r?\n\s*){2})/g, '$1');
  markdown = trimNewlines(markdown);
  if (markdown.endsWith(' ') && !markdown.endsWith('  ')) markdown = markdown.trimEnd();
  return markdown;
}
