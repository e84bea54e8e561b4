import { resolveUrl } from './parse-document';

export interface PageMetadata {
  title: string;
  description?: string;
  siteName?: string;
  canonicalUrl?: string;
  language?: string;
  publishedDate?: string;
  isNews: boolean;
  /** The page labels itself as adult content (rating meta, RTA label, schema.org isFamilyFriendly false). */
  isUnsafe: boolean;
  contentLanguageHints: string[];
}

const NEWS_TYPES = new Set(['NewsArticle', 'ReportageNewsArticle', 'AnalysisNewsArticle', 'BlogPosting', 'LiveBlogPosting']);

function meta(document: Document, ...keys: string[]): string | undefined {
  for (const key of keys) {
    const element = document.querySelector(`meta[property="${key}"], meta[name="${key}"], meta[itemprop="${key}"]`);
    const content = element?.getAttribute('content')?.trim();
    if (content) return content;
  }
  return undefined;
}

function jsonLdNodes(blocks: unknown[]): Record<string, unknown>[] {
  const nodes: Record<string, unknown>[] = [];
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (value && typeof value === 'object') {
      const node = value as Record<string, unknown>;
      nodes.push(node);
      if (node['@graph']) visit(node['@graph']);
    }
  };
  visit(blocks);
  return nodes;
}

function types(node: Record<string, unknown>): string[] {
  const type = node['@type'];
  return Array.isArray(type) ? type.map(String) : type ? [String(type)] : [];
}

/** Self-labelling that search engines honour for safe search: <meta name="rating">, the RTA label, schema.org. */
const ADULT_RATINGS = /^(adult|mature|restricted|rta-5042-1996-1400-1577-rta|18\+?)$/i;

function labelledAdult(document: Document, nodes: Record<string, unknown>[]): boolean {
  const ratings = Array.from(document.querySelectorAll('meta[name="rating" i], meta[name="RATING"], meta[http-equiv="pics-label" i]'))
    .map((element) => element.getAttribute('content')?.trim() ?? '');
  if (ratings.some((rating) => ADULT_RATINGS.test(rating) || /RTA-5042-1996-1400-1577-RTA/i.test(rating))) return true;
  const ageRestriction = meta(document, 'og:restrictions:age');
  if (ageRestriction && /^(18|21)\+?$/.test(ageRestriction)) return true;
  return nodes.some((node) => node['isFamilyFriendly'] === false || node['isFamilyFriendly'] === 'false');
}

function toIsoDate(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const time = Date.parse(value);
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}

export function readPageMetadata(document: Document, jsonLd: unknown[], baseUrl: string): PageMetadata {
  const nodes = jsonLdNodes(jsonLd);
  const article = nodes.find((node) => types(node).some((type) => NEWS_TYPES.has(type) || type === 'Article'));
  const ogType = meta(document, 'og:type');
  const htmlLanguage = document.documentElement?.getAttribute('lang')?.trim() || undefined;
  const ogLocale = meta(document, 'og:locale');
  const hreflangs = Array.from(document.querySelectorAll('link[rel="alternate"][hreflang]'))
    .map((link) => link.getAttribute('hreflang')?.trim())
    .filter((value): value is string => !!value && value !== 'x-default');
  const hints = Array.from(new Set([htmlLanguage, ogLocale?.replace('_', '-'), ...hreflangs].filter((value): value is string => !!value)));

  const documentTitle = document.querySelector('title')?.textContent?.replace(/\s+/g, ' ').trim();
  const headline = typeof article?.['headline'] === 'string' ? article['headline'] : undefined;
  const title =
    meta(document, 'og:title', 'twitter:title') ?? documentTitle ?? headline ?? document.querySelector('h1')?.textContent?.trim() ?? '';

  const published =
    meta(document, 'article:published_time', 'og:published_time', 'datePublished', 'date', 'dc.date', 'DC.date.issued', 'pubdate') ??
    (typeof article?.['datePublished'] === 'string' ? article['datePublished'] : undefined) ??
    document.querySelector('time[datetime]')?.getAttribute('datetime') ??
    undefined;

  return {
    title: title.replace(/\s+/g, ' ').trim(),
    description: meta(document, 'description', 'og:description', 'twitter:description'),
    siteName: meta(document, 'og:site_name', 'application-name'),
    canonicalUrl: resolveUrl(document.querySelector('link[rel="canonical"]')?.getAttribute('href'), baseUrl),
    language: htmlLanguage ?? ogLocale?.replace('_', '-'),
    publishedDate: toIsoDate(published),
    isNews:
      !!article && types(article).some((type) => NEWS_TYPES.has(type)) ||
      ogType === 'article' && !!meta(document, 'article:published_time'),
    isUnsafe: labelledAdult(document, nodes),
    contentLanguageHints: hints,
  };
}
