// Page furniture that is never main content, removed before the content scorer runs so that it cannot win or
// drag a sibling in. Each removal is skipped when the element holds most of the page's text: some sites put
// the whole page inside <form> or give <body> a "sidebar" class.
const FURNITURE_TAGS = new Set(['nav', 'aside', 'footer', 'iframe', 'button', 'select', 'input', 'textarea', 'dialog', 'menu']);

// Class and id words (split at "-", "_", spaces and case changes) that name boilerplate blocks whatever they
// hold: navigation, comments, consent and subscription prompts, and related-content rails.
const FURNITURE_WORDS = new Set([
  'related', 'recommended', 'recommendations', 'newsletter', 'subscribe', 'subscription', 'comment', 'comments',
  'cookie', 'cookies', 'consent', 'gdpr', 'breadcrumb', 'breadcrumbs', 'popup', 'modal', 'navbar', 'nav', 'navigation',
  'menu', 'footer', 'masthead', 'toolbar', 'pagination', 'pager', 'disqus', 'outbrain', 'taboola', 'signup', 'login',
  'skip', 'tagcloud', 'trending', 'popular', 'mostread', 'banner',
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
// A furniture word after one of these is negated: "no-sidebar", "non-paywall", "without-ads".
const NEGATIONS = new Set(['no', 'non', 'not', 'without']);
const AMBIGUOUS_TAGS = new Set(['header']);
const PROSE_MIN_CHARS = 200;
const PROSE_MAX_LINK_DENSITY = 0.35;

const HIDDEN_STYLE = /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)/i;

type FurnitureKind = 'always' | 'unless-prose' | null;

function attributeWords(element: Element): string[] {
  const value = `${element.getAttribute('class') ?? ''} ${element.getAttribute('id') ?? ''} ${element.getAttribute('role') ?? ''}`;
  if (value.trim() === '') return [];
  const words = value
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/);
  return words.filter((_, index) => index === 0 || !NEGATIONS.has(words[index - 1]));
}

function furnitureKind(element: Element, tag: string): FurnitureKind {
  if (FURNITURE_TAGS.has(tag)) return 'always';
  if (tag === 'article' || tag === 'main') return null;
  if (isHidden(element)) return 'always';
  const role = element.getAttribute('role');
  if (role === 'navigation' || role === 'complementary' || role === 'contentinfo' || role === 'banner') return 'always';
  const words = attributeWords(element);
  if (words.some((word) => FURNITURE_WORDS.has(word))) return 'always';
  if (AMBIGUOUS_TAGS.has(tag) || words.some((word) => AMBIGUOUS_WORDS.has(word))) return 'unless-prose';
  return null;
}

interface TextLengths {
  all: number;
  inLinks: number;
}

/**
 * One walk over the body: text length (all, and inside links) of every element, for the wrapper and prose
 * guards, and the furniture candidates. Selector queries over attributes are several times slower on linkedom.
 */
function survey(root: Element): { lengths: Map<Element, TextLengths>; candidates: [Element, FurnitureKind][] } {
  const lengths = new Map<Element, TextLengths>();
  const candidates: [Element, FurnitureKind][] = [];
  const visit = (element: Element, insideLink: boolean): TextLengths => {
    const tag = element.tagName.toLowerCase();
    const kind = furnitureKind(element, tag);
    if (kind) candidates.push([element, kind]);
    const childInsideLink = insideLink || tag === 'a';
    const total: TextLengths = { all: 0, inLinks: 0 };
    for (let child = element.firstChild; child; child = child.nextSibling) {
      if (child.nodeType === 3) {
        const length = (child.nodeValue ?? '').trim().length;
        total.all += length;
        if (childInsideLink) total.inLinks += length;
      } else if (child.nodeType === 1) {
        const inner = visit(child as Element, childInsideLink);
        total.all += inner.all;
        total.inLinks += inner.inLinks;
      }
    }
    lengths.set(element, total);
    return total;
  };
  const rootTotal: TextLengths = { all: 0, inLinks: 0 };
  for (let child = root.firstElementChild; child; child = child.nextElementSibling) {
    const inner = visit(child, false);
    rootTotal.all += inner.all;
    rootTotal.inLinks += inner.inLinks;
  }
  lengths.set(root, rootTotal);
  return { lengths, candidates };
}

function isProse({ all, inLinks }: TextLengths): boolean {
  return all - inLinks >= PROSE_MIN_CHARS && inLinks <= all * PROSE_MAX_LINK_DENSITY;
}

export function isHidden(element: Element): boolean {
  if (element.hasAttribute('hidden') || element.getAttribute('aria-hidden') === 'true') return true;
  const style = element.getAttribute('style');
  return !!style && HIDDEN_STYLE.test(style);
}

/** Removes navigation, sharing, related-content, comment and advertising blocks and hidden elements in place. */
export function removeBoilerplate(document: Document): void {
  const body = document.body;
  if (!body) return;
  const { lengths, candidates } = survey(body);
  const pageText = lengths.get(body)?.all ?? 0;
  // A block holding this much of the page is a layout wrapper, whatever its name says.
  const wrapperThreshold = Math.max(500, pageText * 0.4);
  for (const [element, kind] of candidates) {
    if (!element.parentNode) continue;
    const length = lengths.get(element) ?? { all: 0, inLinks: 0 };
    if (length.all > wrapperThreshold) continue;
    if (kind === 'unless-prose' && isProse(length)) continue;
    element.remove();
  }
}
