import { DomUtils } from 'htmlparser2';
import type { Attributes } from './document-tags';
import { bodyOf, isElement, MarkupDocument, MarkupElement } from './markup-tree';

// Page furniture that is never main content, removed before the content scorer runs so that it cannot win or
// drag a sibling in. Each removal is skipped when the element holds most of the page's text: some sites put
// the whole page inside <form> or give <body> a "sidebar" class.
const FURNITURE_TAGS = new Set(['nav', 'aside', 'footer', 'iframe', 'button', 'select', 'input', 'textarea', 'dialog', 'menu']);

// Class and id words (split at "-", "_", spaces and case changes) that name boilerplate blocks whatever they
// hold: navigation, comments (also in the words of German, French and Spanish templates), consent and subscription
// prompts, disclaimers and affiliate notices, and related-content rails.
const FURNITURE_WORDS = new Set([
  'related', 'recommended', 'recommendations', 'newsletter', 'subscribe', 'subscription', 'comment', 'comments',
  'cookie', 'cookies', 'consent', 'gdpr', 'breadcrumb', 'breadcrumbs', 'popup', 'modal', 'navbar', 'nav', 'navigation',
  'menu', 'footer', 'masthead', 'toolbar', 'pagination', 'pager', 'disqus', 'outbrain', 'taboola', 'signup', 'login',
  'skip', 'tagcloud', 'trending', 'popular', 'mostread', 'banner', 'disclaimer', 'affiliate',
  'kommentar', 'kommentare', 'commentaires', 'comentarios',
]);

// Words that also name layout modifiers and the containers of content ("container right-sidebar", "widget Blog",
// "Section--Ads", "teaserTyp3 newsSingle", "documentContent__sharingContainer", a "paywall" wrapper around the
// paid part), and <header>, which is the page banner or the article's own title block. Such a block is furniture
// only when it is not prose: little text outside links.
const AMBIGUOUS_WORDS = new Set([
  'share', 'sharing', 'social', 'sociallinks', 'socialmedia', 'sidebar', 'widget', 'ad', 'ads', 'adslot', 'advert',
  'advertisement', 'sponsor', 'sponsored', 'promo', 'tags', 'author', 'byline', 'meta', 'dateline', 'timestamp',
  'print', 'rating', 'teaser', 'teasers', 'paywall',
]);
// Words that name a picture's caption, legend or credit outside <figure> (WordPress's "wp-caption-text"): furniture when
// the block holds no picture itself ("wp-caption" wraps the picture too) and is not prose.
const CAPTION_WORDS = new Set(['caption', 'captions', 'credit', 'credits', 'legend']);
// A furniture word after one of these is negated: "no-sidebar", "non-paywall", "without-ads".
const NEGATIONS = new Set(['no', 'non', 'not', 'without']);
const AMBIGUOUS_TAGS = new Set(['header']);
const PROSE_MIN_CHARS = 200;
const PROSE_MAX_LINK_DENSITY = 0.35;

const HIDDEN_STYLE = /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)/i;

type FurnitureKind = 'always' | 'unless-prose' | 'caption' | null;

function kindOfWords(value: string): FurnitureKind {
  if (value.trim() === '') return null;
  const allWords = value
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/);
  const words = allWords.filter((_, index) => index === 0 || !NEGATIONS.has(allWords[index - 1]));
  if (words.some((word) => FURNITURE_WORDS.has(word))) return 'always';
  if (words.some((word) => AMBIGUOUS_WORDS.has(word))) return 'unless-prose';
  return words.some((word) => CAPTION_WORDS.has(word)) ? 'caption' : null;
}

/** What the class, id and role words of an element name; a page repeats the same few class lists, hence the cache. */
function attributeKind(attributes: Attributes, cache: Map<string, FurnitureKind>): FurnitureKind {
  const value = `${attributes['class'] ?? ''} ${attributes['id'] ?? ''} ${attributes['role'] ?? ''}`;
  let kind = cache.get(value);
  if (kind === undefined) {
    kind = kindOfWords(value);
    cache.set(value, kind);
  }
  return kind;
}

function furnitureKind(element: MarkupElement, cache: Map<string, FurnitureKind>): FurnitureKind {
  const tag = element.name;
  if (FURNITURE_TAGS.has(tag)) return 'always';
  if (tag === 'article' || tag === 'main') return null;
  const attributes = element.attribs;
  if (isHidden(attributes)) return 'always';
  const role = attributes['role'];
  if (role === 'navigation' || role === 'complementary' || role === 'contentinfo' || role === 'banner') return 'always';
  const kind = attributeKind(attributes, cache);
  if (kind === 'always' || kind === 'caption') return kind;
  return AMBIGUOUS_TAGS.has(tag) || kind === 'unless-prose' ? 'unless-prose' : null;
}

interface TextLengths {
  all: number;
  inLinks: number;
  /** Whether the block holds the element the page marks as its article's body (itemprop="articleBody"). */
  holdsArticleBody: boolean;
  /** Whether the block holds a picture (`<img>`, `<picture>`). */
  holdsPicture: boolean;
}

/** The page's own word for where its article is: microdata's articleBody property (schema.org). */
const ARTICLE_BODY = /(?:^|\s)articlebody(?:\s|$)/i;

interface Candidate {
  element: MarkupElement;
  kind: FurnitureKind;
  lengths: TextLengths;
}

/**
 * One walk over the body: the furniture candidates with the text length (all, and inside links) of each, for the
 * wrapper and prose guards, and the text length of the whole body.
 */
function survey(root: MarkupElement): { pageText: number; candidates: Candidate[] } {
  const candidates: Candidate[] = [];
  const kindCache = new Map<string, FurnitureKind>();
  const visit = (element: MarkupElement, insideLink: boolean): TextLengths => {
    const kind = furnitureKind(element, kindCache);
    const childInsideLink = insideLink || element.name === 'a';
    const total: TextLengths = {
      all: 0,
      inLinks: 0,
      holdsArticleBody: ARTICLE_BODY.test(element.attribs['itemprop'] ?? ''),
      holdsPicture: element.name === 'img' || element.name === 'picture',
    };
    // Added before its descendants, so that candidates stay in document order.
    if (kind) candidates.push({ element, kind, lengths: total });
    for (const child of element.children) {
      if (DomUtils.isText(child)) {
        const length = child.data.trim().length;
        total.all += length;
        if (childInsideLink) total.inLinks += length;
      } else if (isElement(child)) {
        const inner = visit(child, childInsideLink);
        total.all += inner.all;
        total.inLinks += inner.inLinks;
        if (inner.holdsArticleBody) total.holdsArticleBody = true;
        if (inner.holdsPicture) total.holdsPicture = true;
      }
    }
    return total;
  };
  let pageText = 0;
  for (const child of root.children) if (isElement(child)) pageText += visit(child, false).all;
  return { pageText, candidates };
}

function isProse({ all, inLinks }: TextLengths): boolean {
  return all - inLinks >= PROSE_MIN_CHARS && inLinks <= all * PROSE_MAX_LINK_DENSITY;
}

function isHidden(attributes: Attributes): boolean {
  if (attributes['hidden'] !== undefined || attributes['aria-hidden'] === 'true') return true;
  const style = attributes['style'];
  return !!style && HIDDEN_STYLE.test(style);
}

/**
 * Removes navigation, sharing, related-content, comment and advertising blocks and hidden elements in place. A block
 * holding the element the page marks as its article's body stays, whatever its tag or class: a site that lays its
 * article out in an `<aside>` says where the article is.
 */
export function removeBoilerplate(document: MarkupDocument): void {
  const body = bodyOf(document);
  if (!body) return;
  const { pageText, candidates } = survey(body);
  // A block holding this much of the page is a layout wrapper, whatever its name says.
  const wrapperThreshold = Math.max(500, pageText * 0.4);
  for (const { element, kind, lengths } of candidates) {
    if (lengths.all > wrapperThreshold || lengths.holdsArticleBody) continue;
    if ((kind === 'unless-prose' || kind === 'caption') && isProse(lengths)) continue;
    if (kind === 'caption' && lengths.holdsPicture) continue;
    // A candidate inside a block removed before it is only detached from that block, which is gone already.
    DomUtils.removeElement(element);
  }
}
