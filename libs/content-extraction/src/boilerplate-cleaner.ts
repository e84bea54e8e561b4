// Page furniture that is never main content, removed before the content scorer runs so that it cannot win or
// drag a sibling in. Each removal is skipped when the element holds most of the page's text: some sites put
// the whole page inside <form> or give <body> a "sidebar" class.
const FURNITURE_TAGS = new Set(['nav', 'aside', 'footer', 'header', 'iframe', 'button', 'select', 'input', 'textarea', 'dialog', 'menu']);

// Class and id words (split at "-", "_", spaces and case changes) that name boilerplate blocks.
const FURNITURE_WORDS = new Set([
  'share', 'sharing', 'social', 'sociallinks', 'socialmedia', 'related', 'recommended', 'recommendations', 'newsletter',
  'subscribe', 'subscription', 'comment', 'comments', 'cookie', 'cookies', 'consent', 'gdpr', 'advert', 'advertisement',
  'ad', 'ads', 'adslot', 'sponsor', 'sponsored', 'promo', 'breadcrumb', 'breadcrumbs', 'sidebar', 'widget', 'popup',
  'modal', 'navbar', 'nav', 'navigation', 'menu', 'footer', 'masthead', 'toolbar', 'pagination', 'pager', 'disqus',
  'outbrain', 'taboola', 'paywall', 'signup', 'login', 'skip', 'tags', 'tagcloud', 'byline', 'author', 'meta',
  'dateline', 'timestamp', 'print', 'rating', 'trending', 'popular', 'mostread', 'teaser', 'teasers', 'banner',
]);

const HIDDEN_STYLE = /(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)/i;

function attributeWords(element: Element): string[] {
  const value = `${element.getAttribute('class') ?? ''} ${element.getAttribute('id') ?? ''} ${element.getAttribute('role') ?? ''}`;
  if (value.trim() === '') return [];
  return value
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/);
}

/**
 * One walk over the body: the text length of every element (for the wrapper guard) and the furniture
 * candidates. Selector queries over attributes are several times slower on linkedom than this walk.
 */
function survey(root: Element): { lengths: Map<Element, number>; candidates: Element[] } {
  const lengths = new Map<Element, number>();
  const candidates: Element[] = [];
  const visit = (element: Element): number => {
    const tag = element.tagName.toLowerCase();
    if (FURNITURE_TAGS.has(tag) || (tag !== 'article' && tag !== 'main' && (isHidden(element) || isFurniture(element)))) {
      candidates.push(element);
    }
    let total = 0;
    for (let child = element.firstChild; child; child = child.nextSibling) {
      if (child.nodeType === 3) total += (child.nodeValue ?? '').trim().length;
      else if (child.nodeType === 1) total += visit(child as Element);
    }
    lengths.set(element, total);
    return total;
  };
  for (let child = root.firstElementChild; child; child = child.nextElementSibling) visit(child);
  lengths.set(root, Array.from(root.children).reduce((sum, child) => sum + (lengths.get(child) ?? 0), 0));
  return { lengths, candidates };
}

export function isFurniture(element: Element): boolean {
  const role = element.getAttribute('role');
  if (role === 'navigation' || role === 'complementary' || role === 'contentinfo' || role === 'banner') return true;
  return attributeWords(element).some((word) => FURNITURE_WORDS.has(word));
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
  const pageText = lengths.get(body) ?? 0;
  // A block holding this much of the page is a layout wrapper, whatever its name says.
  const wrapperThreshold = Math.max(500, pageText * 0.4);
  for (const element of candidates) {
    if (!element.parentNode) continue;
    if ((lengths.get(element) ?? 0) > wrapperThreshold) continue;
    element.remove();
  }
}
