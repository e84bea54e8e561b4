import { imageSource, isTrackingPixel } from './image-collector';
import { resolveUrl } from './parse-document';

/**
 * Makes the content's links and images absolute so markdown stays usable away from the page, takes lazy-loaded
 * image sources, and drops data URIs and tracking pixels.
 */
export function absolutizeContentUrls(content: Element, baseUrl: string): void {
  for (const anchor of Array.from(content.querySelectorAll('a[href]'))) {
    const href = anchor.getAttribute('href') ?? '';
    if (href.startsWith('#')) continue;
    const url = resolveUrl(href, baseUrl);
    if (url) anchor.setAttribute('href', url);
    else anchor.removeAttribute('href');
  }
  for (const image of Array.from(content.querySelectorAll('img'))) {
    const url = resolveUrl(imageSource(image), baseUrl);
    if (!url || isTrackingPixel(image, url)) image.remove();
    else image.setAttribute('src', url);
  }
}
