import type { WebPageImage } from './web-page';
import { resolveUrl } from './parse-document';

// Analytics beacons and spacers served as images; they carry no picture for the reader.
const TRACKING_URL = /(?:\/pixel|\/beacon|\/track(?:ing)?[/?.]|\/spacer|\/blank\.gif|\/1x1|facebook\.com\/tr|doubleclick\.net|google-analytics\.com|\/b\/ss\/|scorecardresearch\.com|\/collect\?|quantserve\.com|\.gif\?)/i;

export function isTrackingPixel(image: Element, url: string): boolean {
  const width = Number(image.getAttribute('width'));
  const height = Number(image.getAttribute('height'));
  if ((width > 0 && width <= 2) || (height > 0 && height <= 2)) return true;
  return TRACKING_URL.test(url);
}

/** The best source of an <img>: lazy-loading attributes first (src is then a placeholder), then srcset. */
export function imageSource(image: Element): string | undefined {
  for (const attribute of ['data-src', 'data-lazy-src', 'data-original', 'src']) {
    const value = image.getAttribute(attribute)?.trim();
    if (value && !value.startsWith('data:')) return value;
  }
  const srcset = image.getAttribute('srcset') ?? image.getAttribute('data-srcset');
  const first = srcset?.split(',')[0]?.trim().split(/\s+/)[0];
  return first && !first.startsWith('data:') ? first : undefined;
}

/**
 * Absolute, deduplicated image URLs: the page's social preview image first, then the images of the main
 * content. Data URIs and tracking pixels are dropped.
 */
export function collectImages(content: Element | null, previewImage: string | undefined, baseUrl: string): WebPageImage[] {
  const images: WebPageImage[] = [];
  const seen = new Set<string>();
  const add = (url: string | undefined, alt: string): void => {
    if (!url || seen.has(url) || TRACKING_URL.test(url)) return;
    seen.add(url);
    images.push({ url, alt });
  };
  add(resolveUrl(previewImage, baseUrl), '');
  if (!content) return images;
  for (const image of Array.from(content.querySelectorAll('img'))) {
    const url = resolveUrl(imageSource(image), baseUrl);
    if (!url || isTrackingPixel(image, url)) continue;
    add(url, (image.getAttribute('alt') ?? '').trim());
  }
  return images;
}
