import { documentBaseUrl, parseDocument, resolveUrl, stripNonContent } from './parse-document';
import { conventionalFavicon } from './web-page';

// Most specific first: an explicit icon (also "shortcut icon"), then the Apple touch icons browsers also accept.
const ICON_RELS = [['icon'], ['apple-touch-icon', 'apple-touch-icon-precomposed']];

export function faviconFromDocument(document: Document, pageUrl: string): string | undefined {
  const { baseUrl } = documentBaseUrl(document, pageUrl);
  const links = Array.from(document.querySelectorAll('link[rel][href]')).map((link) => ({
    rels: (link.getAttribute('rel') ?? '').toLowerCase().split(/\s+/),
    href: link.getAttribute('href'),
  }));
  for (const wanted of ICON_RELS) {
    for (const link of links) {
      if (!link.rels.some((rel) => wanted.includes(rel))) continue;
      const url = resolveUrl(link.href, baseUrl);
      if (url) return url;
    }
  }
  return conventionalFavicon(pageUrl);
}

/** The page's icon: `<link rel=icon>`, else the Apple touch icon, else `${origin}/favicon.ico`. */
export function faviconFor(html: string, baseUrl: string): string | undefined {
  return faviconFromDocument(parseDocument(stripNonContent(html)), baseUrl);
}
