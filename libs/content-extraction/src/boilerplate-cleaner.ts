import { DomUtils } from 'htmlparser2';
import type { Attributes } from './document-tags';
import { bodyOf, HEADING_TAGS, isElement, MarkupDocument, MarkupElement } from './markup-tree';
import { classWords, isProseText, isSpace } from './markup-words';

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
  'skip', 'cta', 'tagcloud', 'trending', 'popular', 'mostread', 'banner', 'disclaimer', 'affiliate',
  'kommentar', 'kommentare', 'commentaires', 'comentarios',
]);

// Words that also name layout modifiers and the containers of content ("container right-sidebar", "widget Blog",
// "Section--Ads", "teaserTyp3 newsSingle", "documentContent__sharingContainer", a "paywall" wrapper around the
// paid part), and <header>, which is the page banner or the article's own title block. Such a block is furniture
// only when it is not prose: little text outside links.
const AMBIGUOUS_WORDS = new Set([
  'share', 'sharing', 'social', 'sociallinks', 'socialmedia', 'sidebar', 'widget', 'ad', 'ads', 'adslot', 'advert',
  'advertisement', 'sponsor', 'sponsored', 'promo', 'tags', 'author', 'byline', 'meta', 'dateline', 'timestamp',
  'print', 'rating', 'teaser', 'teasers', 'paywall', 'date', 'dates', 'pubdate', 'published', 'posted', 'submitted',
]);
// Words that name a picture's caption, legend or credit outside <figure> (WordPress's "wp-caption-text"): furniture when
// the block holds no picture itself ("wp-caption" wraps the picture too) and is not prose of CAPTION_PROSE_MIN_CHARS.
const CAPTION_WORDS = new Set(['caption', 'captions', 'credit', 'credits', 'legend']);
// Words that, beside "author", name the box about the writer at the end of a post (its picture, biography and links:
// "author-bio", "AuthorBox", "entry-author-info", "about-author"): prose, but about the writer, not the article.
const AUTHOR_BOX_WORDS = new Set(['bio', 'biography', 'box', 'info', 'description', 'about', 'profile']);
// A furniture word after one of these is negated: "no-sidebar", "non-paywall", "without-ads".
const NEGATIONS = new Set(['no', 'non', 'not', 'without']);
const AMBIGUOUS_TAGS = new Set(['header']);
// A picture's caption runs to a few sentences (news agencies write 300 to 500 characters: who, where, when, credit);
// a caption-named block longer than this is prose that only borrows the name.
const CAPTION_PROSE_MIN_CHARS = 1000;

const AUTHOR_PROPERTY = /(?:^|\s)author(?:\s|$)/i;
const DATE_PROPERTY = /(?:^|\s)date(?:Published|Modified|Created)(?:\s|$)/i;
const HIDDEN_STYLE = /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)/i;
// Classes of the common CSS frameworks and themes that hide text from sighted readers: text for screen readers only
// (Bootstrap's "sr-only" and "visually-hidden", WordPress's "screen-reader-text", BBC's "off-screen") and Bootstrap's
// "d-none", unless a breakpoint class ("d-md-block") shows it again on some screens ("d-print-block" is print only).
const HIDDEN_CLASS = /(?:^|\s)(?:sr-only|visually-hidden|visuallyhidden|screen-reader-text|screen-reader-only|off-screen|offscreen)(?:\s|$)/i;
const DISPLAY_NONE_CLASS = /(?:^|\s)d-none(?:\s|$)/;
const SHOWN_AT_BREAKPOINT_CLASS = /(?:^|\s)d-(?:sm|md|lg|xl|xxl)-(?!none)[a-z-]+(?:\s|$)/;

type FurnitureKind = 'always' | 'unless-prose' | 'caption' | 'picture-box' | 'unnamed-picture-box' | null;
// Words that name a box around a picture ("image", "photo", "figure"): a picture with a short text beside it and
// nothing else is a figure written without <figure>, and its text is the caption.
const PICTURE_BOX_WORDS = new Set(['image', 'img', 'photo', 'picture', 'figure', 'pic']);
const PICTURE_BOX_MAX_CHARS = 500;
const UNNAMED_PICTURE_BOX_MAX_CHARS = 300;

function kindOfWords(value: string): FurnitureKind {
  if (value.trim() === '') return null;
  const allWords = classWords(value);
  const words = allWords.filter((_, index) => index === 0 || !NEGATIONS.has(allWords[index - 1]));
  if (words.some((word) => FURNITURE_WORDS.has(word))) return 'always';
  if (words.includes('author') && words.some((word) => AUTHOR_BOX_WORDS.has(word))) return 'always';
  if (words.some((word) => AMBIGUOUS_WORDS.has(word))) return 'unless-prose';
  if (words.some((word) => CAPTION_WORDS.has(word))) return 'caption';
  return words.some((word) => PICTURE_BOX_WORDS.has(word)) ? 'picture-box' : null;
}

/**
 * What the class, id and role words of an element name; a page repeats the same few class lists, hence the cache.
 * A heading's id is its anchor, made from its own words by AsciiDoc, Sphinx and Markdown ("_date_formats" for "DATE
 * FORMATS"), and names no role.
 */
function attributeKind(tag: string, attributes: Attributes, cache: KindCache): FurnitureKind {
  const id = HEADING_TAGS.has(tag) ? '' : (attributes['id'] ?? '');
  const className = attributes['class'] ?? '';
  const role = attributes['role'] ?? '';
  // No class, id or role: the value is blank and names nothing.
  if (!className && !id && !role) return null;
  // Most elements have a class only: looked up by it, without building the value for each element.
  if (!id && !role) {
    let kind = cache.byClass.get(className);
    if (kind === undefined) {
      kind = kindOfWords(className);
      cache.byClass.set(className, kind);
    }
    return kind;
  }
  const value = `${className} ${id} ${role}`;
  let kind = cache.byValue.get(value);
  if (kind === undefined) {
    kind = kindOfWords(value);
    cache.byValue.set(value, kind);
  }
  return kind;
}

/** Kinds already worked out on a page: by class alone (no id or role), and by the whole class, id and role value. */
interface KindCache {
  byClass: Map<string, FurnitureKind>;
  byValue: Map<string, FurnitureKind>;
}

function furnitureKind(element: MarkupElement, cache: KindCache): FurnitureKind {
  const tag = element.name;
  if (FURNITURE_TAGS.has(tag)) return 'always';
  if (tag === 'article' || tag === 'main') return null;
  const attributes = element.attribs;
  if (isHidden(attributes)) return 'always';
  const role = attributes['role'];
  if (role === 'navigation' || role === 'complementary' || role === 'contentinfo' || role === 'banner') return 'always';
  const itemprop = attributes['itemprop'];
  if (itemprop) {
    // The writer's box marked in microdata (schema.org author): a byline or a biography, not the article.
    if (AUTHOR_PROPERTY.test(itemprop)) return 'always';
    // The date the page states in microdata (schema.org datePublished, dateModified) is its dateline.
    if (DATE_PROPERTY.test(itemprop)) return 'unless-prose';
  }
  const kind = attributeKind(tag, attributes, cache);
  if (kind === 'always' || kind === 'caption' || kind === 'picture-box') return kind;
  // A figure's text beside its picture is its caption or credit, in <figcaption> or not ("figure > span.description").
  if (tag === 'figure' && kind === null) return 'picture-box';
  return AMBIGUOUS_TAGS.has(tag) || kind === 'unless-prose' ? 'unless-prose' : null;
}

interface TextLengths {
  all: number;
  inLinks: number;
  /** Whether the block holds the element the page marks as its article's body (itemprop="articleBody"). */
  holdsArticleBody: boolean;
  /** Whether the block holds a picture (`<img>`, `<picture>`). */
  holdsPicture: boolean;
  /** Text inside embedded posts (a tweet, an Instagram or Facebook post quoted in its embed markup). */
  inEmbeds: number;
}

// The markup the social networks' embed codes give a quoted post, its text written out for readers without the
// script: Twitter's and X's "twitter-tweet", Instagram's "instagram-media", TikTok's "tiktok-embed", Facebook's "fb-post"
// (not its page plugin, "fb-page", a sidebar's like box), Reddit's, Bluesky's and Mastodon's, Threads' "text-post-media".
const EMBEDDED_POST_CLASS = /(?:^|\s)(?:twitter-tweet|twitter-video|instagram-media|tiktok-embed|fb-post|reddit-embed-bq|bluesky-embed|mastodon-embed|text-post-media)(?:\s|$)/;

/** The page's own word for where its article is: microdata's articleBody property (schema.org). */
const ARTICLE_BODY = /(?:^|\s)articlebody(?:\s|$)/i;

/**
 * Characters a reader sees of a text node: runs of white space count as one space. Templates indent their markup,
 * and a short caption split over indented lines (a Fluid or Twig partial) would otherwise measure as prose.
 */
function visibleLength(text: string): number {
  let length = 0;
  let seenText = false;
  let gap = false;
  for (let index = 0; index < text.length; index += 1) {
    if (isSpace(text.charCodeAt(index))) {
      gap = seenText;
    } else {
      if (gap) length += 1;
      length += 1;
      gap = false;
      seenText = true;
    }
  }
  return length;
}

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
  const kindCache: KindCache = { byClass: new Map(), byValue: new Map() };
  const visit = (element: MarkupElement, insideLink: boolean): TextLengths => {
    const kind = furnitureKind(element, kindCache);
    const childInsideLink = insideLink || element.name === 'a';
    const itemprop = element.attribs['itemprop'];
    const className = element.attribs['class'];
    const total: TextLengths = {
      all: 0,
      inLinks: 0,
      holdsArticleBody: !!itemprop && ARTICLE_BODY.test(itemprop),
      holdsPicture: element.name === 'img' || element.name === 'picture',
      inEmbeds: 0,
    };
    const isEmbed = !!className && EMBEDDED_POST_CLASS.test(className);
    // Added before its descendants, so that candidates stay in document order.
    if (kind) candidates.push({ element, kind, lengths: total });
    for (const child of element.children) {
      if (DomUtils.isText(child)) {
        const length = visibleLength(child.data);
        total.all += length;
        if (childInsideLink) total.inLinks += length;
        if (isEmbed) total.inEmbeds += length;
      } else if (isElement(child)) {
        const inner = visit(child, childInsideLink);
        total.all += inner.all;
        total.inLinks += inner.inLinks;
        total.inEmbeds += isEmbed ? inner.all : inner.inEmbeds;
        if (inner.holdsArticleBody) total.holdsArticleBody = true;
        if (inner.holdsPicture) total.holdsPicture = true;
      }
    }
    // A box of no name around a picture and a line of text beside it is a figure too (a "div.imginline" holding an
    // <img> and a <span>, a "div.visual" holding a <picture> and a "div.description"). Added after its descendants:
    // it only removes its caption, and the order does not matter for that.
    if (!kind && element.name === 'div' && total.holdsPicture && total.all > 0 && total.all <= UNNAMED_PICTURE_BOX_MAX_CHARS) {
      candidates.push({ element, kind: 'unnamed-picture-box', lengths: total });
    }
    return total;
  };
  let pageText = 0;
  for (const child of root.children) if (isElement(child)) pageText += visit(child, false).all;
  return { pageText, candidates };
}

function isProse({ all, inLinks }: TextLengths, minChars?: number): boolean {
  return isProseText(all, inLinks, minChars);
}

/**
 * A post quoted from a social network in its embed markup, in a wrapper whose class says so ("social-media-embed",
 * "embed-social"): the article quotes it, as it would quote a speaker. Most of the block's text is the post's.
 */
function isEmbeddedPost({ all, inEmbeds }: TextLengths): boolean {
  return inEmbeds > 0 && inEmbeds * 2 >= all;
}

/**
 * Puts an element's children in its place. The wrapper of an embedded post keeps its post, not its class words
 * ("social-media-embed"), which the content scorer reads as a sharing bar's.
 */
function unwrap(element: MarkupElement): void {
  for (const child of [...element.children]) DomUtils.prepend(element, child);
  DomUtils.removeElement(element);
}

function isHidden(attributes: Attributes): boolean {
  if (attributes['hidden'] !== undefined || attributes['aria-hidden'] === 'true') return true;
  const style = attributes['style'];
  if (style && HIDDEN_STYLE.test(style)) return true;
  const classes = attributes['class'];
  if (!classes) return false;
  return HIDDEN_CLASS.test(classes) || (DISPLAY_NONE_CLASS.test(classes) && !SHOWN_AT_BREAKPOINT_CLASS.test(classes));
}

const PICTURE_TAGS = new Set(['img', 'picture']);
// Markup a caption does not hold: headings, lists, tables, quotations (and, counted, more than one paragraph).
const CAPTION_BREAKERS = new Set(['p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ul', 'ol', 'dl', 'table', 'blockquote']);
const holdsPictureNode = (node: MarkupElement): boolean =>
  PICTURE_TAGS.has(node.name) || node.children.some((child) => isElement(child) && holdsPictureNode(child));

/**
 * The caption beside the picture in a picture box: the box's other children, when exactly one child holds a picture and
 * the rest is a caption's shape, a line or two (a caption and a credit) without a heading or a second paragraph.
 */
function removeCaptionOfPictureBox(box: MarkupElement, named = true): void {
  const withPicture = box.children.filter((child) => isElement(child) && holdsPictureNode(child));
  if (withPicture.length !== 1) return;
  // A <figcaption> goes with the content's other captions (content-pruner.ts).
  const others = box.children.filter((child) => child !== withPicture[0] && !(isElement(child) && child.name === 'figcaption'));
  const texts = others.filter((child) => DomUtils.textContent(child).trim() !== '');
  if (texts.length > 2) return;
  // Without a name saying picture, the caption is an element of its own beside it, not a paragraph nor running text.
  if (!named && texts.some((child) => !isElement(child) || child.name === 'p' || child.name === 'a')) return;
  const blocks = others.flatMap((child) => (isElement(child) ? DomUtils.findAll((node) => CAPTION_BREAKERS.has(node.name), [child]) : []));
  const paragraphs = blocks.filter((node) => node.name === 'p').length;
  if (paragraphs > (named ? 1 : 0) || blocks.some((node) => node.name !== 'p')) return;
  for (const child of others) DomUtils.removeElement(child);
}

/**
 * Removes navigation, sharing, related-content, comment and advertising blocks and hidden elements in place. A block
 * holding the element the page marks as its article's body stays, whatever its tag or class: a site that lays its
 * article out in an `<aside>` says where the article is. Returns the blocks removed whatever they hold (navigation,
 * consent prompts, hidden elements…), as opposed to those removed for not being prose (a title block, a teaser box).
 */
export function removeBoilerplate(document: MarkupDocument): Set<MarkupElement> {
  const furniture = new Set<MarkupElement>();
  const body = bodyOf(document);
  if (!body) return furniture;
  const { pageText, candidates } = survey(body);
  // A block holding this much of the page is a layout wrapper, whatever its name says.
  const wrapperThreshold = Math.max(500, pageText * 0.4);
  for (const { element, kind, lengths } of candidates) {
    if (lengths.all > wrapperThreshold || lengths.holdsArticleBody) continue;
    if (kind === 'unnamed-picture-box') {
      removeCaptionOfPictureBox(element, false);
      continue;
    }
    if (kind === 'picture-box') {
      if (lengths.holdsPicture && lengths.all > 0 && lengths.all <= PICTURE_BOX_MAX_CHARS) removeCaptionOfPictureBox(element);
      continue;
    }
    if (kind === 'unless-prose' && isProse(lengths)) continue;
    if (kind === 'unless-prose' && isEmbeddedPost(lengths)) {
      unwrap(element);
      continue;
    }
    if (kind === 'caption' && (lengths.holdsPicture || isProse(lengths, CAPTION_PROSE_MIN_CHARS))) continue;
    // A candidate inside a block removed before it is only detached from that block, which is gone already.
    DomUtils.removeElement(element);
    if (kind === 'always') furniture.add(element);
  }
  return furniture;
}
