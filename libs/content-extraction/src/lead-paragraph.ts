import { DomUtils } from 'htmlparser2';
import { bodyOf, HEADING_TAGS, isElement, MarkupDocument, MarkupElement, MarkupNode } from './markup-tree';
import { classWords, nonSpaceLength } from './markup-words';

// An article's lead (standfirst, deck, teaser, "bajada") is the summary paragraph between its headline and its body.
// Templates put it in the title block (<header>, a hero box) beside the headline, byline and picture, not in the body's
// container, so the content scorer, which picks the body's container, leaves it out, and a title block that is not
// prose is boilerplate. Templates name it by its role: "lead", "intro", "teaser", "excerpt", "standfirst"…

const LEAD_WORDS = new Set([
  'lead', 'intro', 'teaser', 'excerpt', 'subtitle', 'standfirst', 'deck', 'dek', 'summary', 'abstract', 'description',
  'bajada', 'chapo', 'chapeau',
]);
// Words of the site's own blocks: its tagline.
const SITE_WORDS = new Set(['site', 'blog']);
// A lead is a sentence or a paragraph or two, mostly not links.
const MIN_LEAD_CHARS = 40;
const MAX_LEAD_CHARS = 1500;
const MAX_LEAD_LINK_SHARE = 0.3;
// Between a lead and the body: the title block's rest (a picture's caption, the byline, the date), not another block.
const MAX_GAP_CHARS = 400;
// Characters of the content's start looked up in the page's text.
const KEY_CHARS = 60;

const squeeze = (text: string): string => text.replace(/\s+/g, '');

export interface LeadCandidate {
  element: MarkupElement;
  /** Offsets of its text in the body's text, spaces left out. */
  start: number;
  end: number;
}

interface TextRun {
  node: MarkupNode & { data: string };
  start: number;
  length: number;
}

export interface LeadCandidates {
  body: MarkupElement;
  /** The body's text, spaces left out. */
  bodyText: string;
  /** The body's text nodes with their offsets in bodyText, in document order. */
  runs: TextRun[];
  candidates: LeadCandidate[];
}

// Any of LEAD_WORDS inside a class or id, a cheap test before splitting it into words.
const LEAD_WORD_INSIDE = /lead|intro|teaser|excerpt|subtitle|standfirst|deck|dek|summary|abstract|description|bajada|chapo|chapeau/i;

/**
 * Whether a class and id value names an article's lead, not the site's: WordPress's `site-description` is the site's
 * tagline. Words are split at "-", "_", spaces and case changes.
 */
function namesLead(value: string): boolean {
  const words = classWords(value);
  return words.some((word) => LEAD_WORDS.has(word)) && !words.some((word) => SITE_WORDS.has(word));
}

/**
 * The blocks named as leads, with where their text sits in the body's text, read before boilerplate removal (which
 * may remove the title block holding the lead). The innermost named block, not a heading and with no heading inside,
 * mostly not links.
 */
export function leadCandidates(document: MarkupDocument): LeadCandidates | null {
  const body = bodyOf(document);
  if (!body) return null;
  const runs: TextRun[] = [];
  let offset = 0;
  const candidates: LeadCandidate[] = [];
  // A page repeats the same few class lists.
  const named = new Map<string, boolean>();
  const isLead = (element: MarkupElement): boolean => {
    const className = element.attribs['class'];
    const id = element.attribs['id'];
    if (!(className && LEAD_WORD_INSIDE.test(className)) && !(id && LEAD_WORD_INSIDE.test(id))) return false;
    const value = `${className ?? ''} ${id ?? ''}`;
    let lead = named.get(value);
    if (lead === undefined) {
      lead = namesLead(value);
      named.set(value, lead);
    }
    return lead;
  };
  // Returns whether the element is or holds a heading or a named lead, and its link text length.
  const visit = (element: MarkupElement, insideLink: boolean): { blocks: boolean; links: number } => {
    const start = offset;
    const childInsideLink = insideLink || element.name === 'a';
    let blocks = HEADING_TAGS.has(element.name);
    let links = 0;
    for (const child of element.children) {
      if (DomUtils.isText(child)) {
        // The length of the text without its spaces, counted without building it: the text is built only for
        // pages with a candidate (below).
        const textLength = nonSpaceLength(child.data);
        if (!textLength) continue;
        runs.push({ node: child, start: offset, length: textLength });
        offset += textLength;
        if (childInsideLink) links += textLength;
      } else if (isElement(child)) {
        const inner = visit(child, childInsideLink);
        blocks ||= inner.blocks;
        links += inner.links;
      }
    }
    const length = offset - start;
    const lead = !blocks && isLead(element);
    if (lead && length >= MIN_LEAD_CHARS && length <= MAX_LEAD_CHARS && links <= length * MAX_LEAD_LINK_SHARE) {
      candidates.push({ element, start, end: offset });
    }
    return { blocks: blocks || lead, links };
  };
  // Most pages name no lead: the text is read only for those that do. A heading is never one (visit counts it as a
  // block), and AsciiDoc's and Sphinx's heading anchors ("_description", "summary") would read as leads' names.
  if (!DomUtils.findOne((element) => !HEADING_TAGS.has(element.name) && isLead(element), body.children, true)) return null;
  for (const child of body.children) if (isElement(child)) visit(child, false);
  if (!candidates.length) return null;
  const bodyText = runs.map((run) => squeeze(run.node.data)).join('');
  return { body, bodyText, runs, candidates };
}

/** Whether a node is still in the body: boilerplate removal detaches the blocks it removes. */
function isAttached(node: MarkupNode, body: MarkupElement): boolean {
  let current: MarkupNode | null = node;
  while (current && current !== body) current = current.parent as MarkupNode | null;
  return current === body;
}

/**
 * Whether a lead was removed with a block that is boilerplate whatever it holds (a consent prompt, a site's banner
 * or footer, a hidden element), rather than with a block removed for not being prose (the title block, a teaser box).
 */
function inFurniture(element: MarkupElement, body: MarkupElement, furniture: Set<MarkupElement>): boolean {
  for (let current: MarkupElement | null = element; current && current !== body; current = current.parent as MarkupElement | null) {
    if (furniture.has(current)) return true;
  }
  return false;
}

/** Characters of text from `start` to `end` in the body's text that boilerplate removal left in place. */
function keptChars(leads: LeadCandidates, start: number, end: number): number {
  const { runs } = leads;
  // The first run at or after `start`, by bisection.
  let low = 0;
  let high = runs.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (runs[middle].start < start) low = middle + 1;
    else high = middle;
  }
  let chars = 0;
  for (let index = low; index < runs.length && runs[index].start < end; index += 1) {
    if (isAttached(runs[index].node, leads.body)) chars += runs[index].length;
  }
  return chars;
}

/**
 * Puts the page's lead at the start of the content when the content leaves it out: the last named lead that starts
 * before the content does, when the content follows it after at most MAX_GAP_CHARS of text that is not boilerplate.
 */
export function withLead(content: Element, leads: LeadCandidates | null, furniture: Set<MarkupElement>): void {
  if (!leads) return;
  const contentText = squeeze(content.textContent ?? '');
  const key = contentText.slice(0, KEY_CHARS);
  const firstStart = key ? leads.bodyText.indexOf(key) : -1;
  if (firstStart < 0) return;
  let lead: LeadCandidate | null = null;
  for (const candidate of leads.candidates) {
    if (candidate.start > firstStart) break;
    lead = candidate;
  }
  // The content has the lead already (a lead that repeats the body's first sentence starts where the content does).
  if (!lead || contentText.includes(leads.bodyText.slice(lead.start, lead.end))) return;
  const contentStart = leads.bodyText.indexOf(key, lead.end);
  if (contentStart < 0 || keptChars(leads, lead.end, contentStart) > MAX_GAP_CHARS) return;
  if (inFurniture(lead.element, leads.body, furniture)) return;
  const holder = content.ownerDocument.createElement('div');
  holder.innerHTML = DomUtils.getOuterHTML(lead.element, { encodeEntities: 'utf8' });
  const element = holder.firstElementChild;
  if (element) content.insertBefore(element, content.firstChild);
}
