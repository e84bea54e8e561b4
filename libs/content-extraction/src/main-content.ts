import { Readability } from '@mozilla/readability';
import { elementToText } from './element-to-text';

export interface MainContent {
  element: Element;
  text: string;
}

// Below this many characters Readability has usually picked a teaser or a caption instead of the article.
const SHORT_CONTENT_CHARS = 250;

/**
 * Finds the main content of a (boilerplate-cleaned) document: Readability's choice, unless it fails or finds
 * much less text than the page's densest text region, in which case that region is used.
 */
export function findMainContent(document: Document, freshDocument: () => Document): MainContent | null {
  if (!document.body) return null;
  let readable: Element | null = null;
  try {
    const article = new Readability<Element>(document, {
      charThreshold: 400,
      keepClasses: false,
      // Hand back the element itself: re-serialising and re-parsing its HTML would double the work.
      serializer: (element) => element as Element,
    }).parse();
    readable = article?.content ?? null;
  } catch {
    readable = null;
  }
  const readableText = readable ? elementToText(readable) : '';
  if (readable && readableText.length >= SHORT_CONTENT_CHARS) return { element: readable, text: readableText };
  // Readability rewrites the document while it works, so the fallback looks at an untouched copy.
  const fallbackBody = freshDocument().body;
  const fallback = fallbackBody ? densestRegion(fallbackBody) : null;
  if (!fallback) return readable ? { element: readable, text: readableText } : null;
  const fallbackText = elementToText(fallback);
  if (!readable || fallbackText.length > readableText.length) return { element: fallback, text: fallbackText };
  return { element: readable, text: readableText };
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
