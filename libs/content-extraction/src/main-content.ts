import { Readability } from '@mozilla/readability';
import { elementToText } from './element-to-text';
import { isProseText, squeezedLength } from './markup-words';
import { elementAtPath, findSectionedContainer, SectionedContainer, widenToTitleBlock } from './sectioned-container';

// Below this many characters Readability has usually picked a teaser or a caption instead of the article.
const SHORT_CONTENT_CHARS = 250;
const SECTIONED_PAGE_SHARE = 0.85;

const squeeze = (text: string): string => text.replace(/[\s|]+/g, '');

/**
 * Whether Readability kept a part of a sectioned document only: its text lacks most section headings. `sectionedContent`:
 * the sections' text as read before Readability rewrote the document.
 */
function keptPartOfSections(sectioned: SectionedContainer, sectionedContent: string, readableText: string): boolean {
  const missing = sectioned.headings.filter((heading) => !readableText.includes(heading)).length;
  // The choice must come from the sections: a page may have an article beside a run of headed boxes.
  return missing * 2 >= sectioned.headings.length && squeeze(sectionedContent).includes(squeeze(readableText).slice(0, 200));
}

/** Characters of text (spaces left out) in an element's own `<p>` children. */
function ownParagraphChars(element: Element): number {
  let chars = 0;
  for (let child = element.firstElementChild; child; child = child.nextElementSibling) {
    if (child.tagName.toUpperCase() === 'P') chars += squeezedLength(child.textContent ?? '');
  }
  return chars;
}

// Paragraphs of at least this many characters beside a table make its container an article, not a layout.
const ARTICLE_BESIDE_TABLE_CHARS = 500;

/**
 * Readability scores table cells as it scores paragraphs, and a comma-separated list laid out in a table (an open
 * letter's signatories) can outscore the article's paragraphs beside it: its choice is then the table's rows, without
 * a paragraph. When the table's container holds paragraphs of its own, the container is the article (its paragraphs
 * and the table). Looked up in an untouched copy, since Readability rewrites the document it reads.
 */
function articleAroundTable(readable: Element, readableText: string, freshDocument: () => Document): Element | null {
  if (!readable.querySelector('td, th') || readable.querySelector('p')) return null;
  const chosen = squeeze(readableText).slice(0, 200);
  if (!chosen) return null;
  const body = freshDocument().body;
  for (const table of Array.from(body?.querySelectorAll('table') ?? [])) {
    const container = table.parentElement;
    if (!container || !squeeze(table.textContent ?? '').includes(chosen)) continue;
    return ownParagraphChars(container) >= ARTICLE_BESIDE_TABLE_CHARS ? container : null;
  }
  return null;
}

// A child box holding this share of the chosen element's text is the article's own box;
const ARTICLE_BOX_SHARE = 0.6;
// a box after it that is not prose (isProseText) is not the article's.
// Blocks that wrap other blocks; a paragraph, list or table after the article's box is the article's own text.
const BOX_TAGS = new Set(['DIV', 'SECTION', 'ARTICLE', 'MAIN', 'ASIDE']);

/** Characters of an element's text inside links, spaces left out. */
function linkChars(element: Element): number {
  let chars = 0;
  for (const link of Array.from(element.querySelectorAll('a'))) chars += squeezedLength(link.textContent ?? '');
  return chars;
}

function isProseBox(box: Element): boolean {
  const chars = squeezedLength(box.textContent ?? '');
  const inLinks = linkChars(box);
  return isProseText(chars, inLinks);
}

/**
 * Readability often chooses the wrapper around the article's box rather than the box: it adds 25 points to an element
 * whose class or id says "content", "main" or "page", and a short article's paragraphs count in the wrapper too
 * (<div id="content"><div>article</div><div>contact column</div></div>). The wrapper brings the boxes after the
 * article: a contact or address column, a "more stories" strip, a "loading more" placeholder. When one child box of
 * the choice holds most of its text, the boxes after it are dropped if none of them is prose; a paragraph, list or
 * table after it, or a box of prose, is the article's own and leaves the choice as it is.
 */
function dropTrailingBoxes(readable: Element): void {
  // Readability's result: its wrapper, a page <div>, and the chosen element with any siblings it appended.
  const page = readable.children.length === 1 ? readable.firstElementChild : null;
  const chosen = page?.children.length === 1 ? page.firstElementChild : null;
  if (!chosen) return;
  const children = Array.from(chosen.children);
  let article: Element | null = null;
  let articleChars = 0;
  for (const child of children) {
    const chars = squeezedLength(child.textContent ?? '');
    if (chars > articleChars) {
      article = child;
      articleChars = chars;
    }
  }
  if (!article || !BOX_TAGS.has(article.tagName.toUpperCase())) return;
  if (articleChars < squeezedLength(chosen.textContent ?? '') * ARTICLE_BOX_SHARE) return;
  const trailing = children.slice(children.indexOf(article) + 1);
  if (trailing.some((box) => !BOX_TAGS.has(box.tagName.toUpperCase()) || isProseBox(box))) return;
  for (const box of trailing) box.remove();
}

// Readability's negative class and id words (weight -25: a block so named loses the content choice and is dropped
// from the chosen content by its conditional cleaning), read as Readability reads them, substrings included, except
// "hidden": only the class "hidden" itself hides its element (Bootstrap 3, Pure). Inside a compound name it says what
// is hidden where: Bootstrap 3's "hidden-xs" is shown on all but phone screens, Drupal's "field--label-hidden" hides
// the field's label and shows the field (an article's body), a "…-hidden-part" is expanded on click. Text that is
// really hidden is removed before Readability runs (boilerplate-cleaner.ts). Readability 0.6 has no option for its
// class words, so its own expression is taken with that one alternative changed and set on each instance; the test of
// "hidden-xs" fails if a new version no longer has the alternative.
const READABILITY_NEGATIVE = (Readability.prototype as unknown as { REGEXPS: { negative: RegExp } }).REGEXPS.negative;
const NEGATIVE_CLASS_WORDS = new RegExp(READABILITY_NEGATIVE.source.replace('|hidden|', '|(?:^|\\s)hidden(?:\\s|$)|'), READABILITY_NEGATIVE.flags);

function runReadability(document: Document): Element | null {
  try {
    const reader = new Readability<Element>(document, {
      charThreshold: 400,
      keepClasses: false,
      // Only the content element is used; page metadata comes from readPageMetadata, and scripts are stripped.
      disableJSONLD: true,
      // Hand back the element itself: re-serialising and re-parsing its HTML would double the work.
      serializer: (element) => element as Element,
    });
    const internals = reader as unknown as { REGEXPS: Record<string, RegExp> };
    internals.REGEXPS = { ...internals.REGEXPS, negative: NEGATIVE_CLASS_WORDS };
    const article = reader.parse();
    return article?.content ?? null;
  } catch {
    return null;
  }
}

/**
 * Finds the main content of a (boilerplate-cleaned) document: Readability's choice, widened to the whole run of
 * sections when the page is a sectioned document, or the page's densest text region when Readability fails or
 * finds much less text. Only the element: the caller prunes it before reading its text, so text read here would be
 * thrown away (it is read only where the choice depends on it).
 */
export function findMainContent(document: Document, freshDocument: () => Document): Element | null {
  if (!document.body) return null;
  const sectioned = findSectionedContainer(document.body);
  const sectionedElement = sectioned ? elementAtPath(document.body, sectioned.path) : null;
  // Read before Readability rewrites the document.
  const sectionedContent = sectionedElement?.textContent ?? '';
  // A run of sections holding most of the page is the content (a manual page): Readability, the costliest step
  // on such big pages, would at best choose the same element.
  if (sectionedElement && squeezedLength(sectionedContent) >= squeezedLength(document.body.textContent ?? '') * SECTIONED_PAGE_SHARE) {
    return widenToTitleBlock(sectionedElement);
  }
  const readable = runReadability(document);
  const readableText = readable ? elementToText(readable) : '';

  // Readability rewrites the document while it works, so widening and the fallback look at an untouched copy.
  if (sectioned && keptPartOfSections(sectioned, sectionedContent, readableText)) {
    const container = elementAtPath(freshDocument().body, sectioned.path);
    if (container) return widenToTitleBlock(container);
  }
  if (readable && readableText.length >= SHORT_CONTENT_CHARS) {
    const around = articleAroundTable(readable, readableText, freshDocument);
    if (around) return around;
    dropTrailingBoxes(readable);
    return readable;
  }
  const fallbackBody = freshDocument().body;
  const fallback = fallbackBody ? densestRegion(fallbackBody) : null;
  if (!fallback) return readable;
  if (!readable || elementToText(fallback).length > readableText.length) return fallback;
  return readable;
}

/** The element holding the most paragraph text directly, a cheap stand-in when Readability gives up. */
function densestRegion(body: Element): Element | null {
  const scores = new Map<Element, number>();
  for (const paragraph of Array.from(body.querySelectorAll('p, pre, li, td, h2, h3'))) {
    const length = (paragraph.textContent ?? '').trim().length;
    if (length < 25) continue;
    const parent = paragraph.parentElement;
    if (!parent) continue;
    scores.set(parent, (scores.get(parent) ?? 0) + length);
    const grandparent = parent.parentElement;
    if (grandparent) scores.set(grandparent, (scores.get(grandparent) ?? 0) + length / 2);
  }
  let best: Element | null = null;
  let bestScore = 0;
  for (const [element, score] of scores) {
    if (score > bestScore) {
      best = element;
      bestScore = score;
    }
  }
  return best ?? body;
}
