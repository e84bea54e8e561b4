import { DocumentTags, relsOf } from './document-tags';
import { parseMarkup } from './markup-tree';
import { resolveUrl, stripNonContent } from './parse-document';
import { conventionalFavicon } from './web-page';

// Most specific first: an explicit icon (also "shortcut icon"), then the Apple touch icons browsers also accept.
const ICON_RELS = [['icon'], ['apple-touch-icon', 'apple-touch-icon-precomposed']];

export function faviconFromTags(tags: DocumentTags, pageUrl: string): string | undefined {
  const { baseUrl } = tags.baseUrl(pageUrl);
  const links = tags.links
    .filter((link) => link['rel'] !== undefined && link['href'] !== undefined)
    .map((link) => ({ rels: relsOf(link), href: link['href'] }));
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
  return faviconFromTags(new DocumentTags(parseMarkup(stripNonContent(html))), baseUrl);
}
