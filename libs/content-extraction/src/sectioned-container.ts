// Manuals and reference pages (AsciiDoc, Sphinx, Javadoc output) are a run of sibling sections of one shape,
// each led by a heading: <div class="sect1"><h2>NAME</h2>…</div><div class="sect1"><h2>OPTIONS</h2>…</div>.
// Readability scores paragraphs into their nearest ancestors, so its top candidate lands inside the longest
// section and its sibling merge, which only looks at the candidate's own siblings, drops every other section.

const HEADING_TAGS = new Set(['H1', 'H2', 'H3', 'H4', 'H5', 'H6']);
// Fewer sections than this is an ordinary page with a couple of headed boxes, not a sectioned document.
const MIN_SECTIONS = 3;

export interface SectionedContainer {
  /** Element-child indexes from <body> down to the container, to find it again in another parse of the page. */
  path: number[];
  textLength: number;
  /** The text of each section's leading heading. */
  headings: string[];
}

function startsWithHeading(element: Element): boolean {
  const first = element.firstElementChild;
  return !!first && HEADING_TAGS.has(first.tagName.toUpperCase());
}

function shape(element: Element): string {
  return `${element.tagName} ${element.getAttribute('class') ?? ''}`;
}

/** The headings of an element's most common shape of heading-led children, when there are MIN_SECTIONS of them. */
function sectionHeadings(element: Element): string[] | null {
  const groups = new Map<string, string[]>();
  let largest: string[] = [];
  for (let child = element.firstElementChild; child; child = child.nextElementSibling) {
    if (!startsWithHeading(child)) continue;
    const key = shape(child);
    const headings = groups.get(key) ?? [];
    headings.push((child.firstElementChild?.textContent ?? '').replace(/\s+/g, ' ').trim());
    groups.set(key, headings);
    if (headings.length > largest.length) largest = headings;
  }
  return largest.length >= MIN_SECTIONS ? largest : null;
}

/** The element-child indexes leading from `body` down to `element`. */
function pathFrom(body: Element, element: Element): number[] {
  const path: number[] = [];
  for (let node = element; node !== body && node.parentElement; node = node.parentElement) {
    let index = 0;
    for (let sibling = node.previousElementSibling; sibling; sibling = sibling.previousElementSibling) index += 1;
    path.unshift(index);
  }
  return path;
}

interface FoundContainer {
  element: Element;
  textLength: number;
  headings: string[];
}

/** The sectioned container holding the most text at or under `element`; the first one on a tie. */
function largestContainerIn(element: Element): FoundContainer | null {
  const headings = sectionHeadings(element);
  // Nested sections (sect2 inside sect1) are part of the outer container already.
  if (headings) return { element, textLength: (element.textContent ?? '').length, headings };
  let best: FoundContainer | null = null;
  for (let child = element.firstElementChild; child; child = child.nextElementSibling) {
    const found = largestContainerIn(child);
    if (found && (!best || found.textLength > best.textLength)) best = found;
  }
  return best;
}

/** The sectioned container holding the most text, found in one walk of the (not yet modified) body. */
export function findSectionedContainer(body: Element): SectionedContainer | null {
  const found = largestContainerIn(body);
  return found && { path: pathFrom(body, found.element), textLength: found.textLength, headings: found.headings };
}

export function elementAtPath(body: Element, path: number[]): Element | null {
  let element: Element | null = body;
  for (const index of path) element = element?.children[index] ?? null;
  return element;
}

// Climbing to the parent is worth it while the parent adds little beside the container: the page's title block
// (the H1 and its one-line summary before the first section) and nothing the size of another column.
const MAX_ADDED_TEXT_SHARE = 0.15;

/** The container, widened to ancestors that add only a small share of text (its title block). */
export function widenToTitleBlock(container: Element): Element {
  let element = container;
  const length = (element.textContent ?? '').length;
  for (let parent = element.parentElement; parent && parent.tagName.toUpperCase() !== 'HTML'; parent = parent.parentElement) {
    if ((parent.textContent ?? '').length > length * (1 + MAX_ADDED_TEXT_SHARE)) break;
    element = parent;
  }
  return element;
}
