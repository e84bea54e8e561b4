import { DocumentTags, relsOf } from './document-tags';
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

/**
 * The longest article body the page's JSON-LD states (schema.org `articleBody` of any node): the article as the site
 * gives it to search engines, whatever its scripts render.
 */
export function structuredArticleBody(jsonLd: unknown[]): string | undefined {
  let longest: string | undefined;
  for (const node of jsonLdNodes(jsonLd)) {
    const body = node['articleBody'];
    if (typeof body === 'string' && body.length > (longest?.length ?? 0)) longest = body;
  }
  return longest;
}

/** Self-labelling that search engines honour for safe search: <meta name="rating">, the RTA label, schema.org. */
const ADULT_RATINGS = /^(adult|mature|restricted|rta-5042-1996-1400-1577-rta|18\+?)$/i;

function labelledAdult(tags: DocumentTags, nodes: Record<string, unknown>[]): boolean {
  const ratings = tags.metas
    .filter((meta) => meta['name']?.toLowerCase() === 'rating' || meta['http-equiv']?.toLowerCase() === 'pics-label')
    .map((meta) => meta['content']?.trim() ?? '');
  if (ratings.some((rating) => ADULT_RATINGS.test(rating) || /RTA-5042-1996-1400-1577-RTA/i.test(rating))) return true;
  const ageRestriction = tags.meta('og:restrictions:age');
  if (ageRestriction && /^(18|21)\+?$/.test(ageRestriction)) return true;
  return nodes.some((node) => node['isFamilyFriendly'] === false || node['isFamilyFriendly'] === 'false');
}

function toIsoDate(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const time = Date.parse(value);
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}

export function readPageMetadata(tags: DocumentTags, jsonLd: unknown[], baseUrl: string): PageMetadata {
  const nodes = jsonLdNodes(jsonLd);
  const article = nodes.find((node) => types(node).some((type) => NEWS_TYPES.has(type) || type === 'Article'));
  const ogType = tags.meta('og:type');
  const htmlLanguage = tags.language?.trim() || undefined;
  const ogLocale = tags.meta('og:locale');
  const hreflangs = tags.links
    .filter((link) => link['hreflang'] !== undefined && relsOf(link).includes('alternate'))
    .map((link) => link['hreflang']?.trim())
    .filter((value): value is string => !!value && value !== 'x-default');
  const hints = Array.from(new Set([htmlLanguage, ogLocale?.replace('_', '-'), ...hreflangs].filter((value): value is string => !!value)));

  const documentTitle = tags.firstText('title')?.replace(/\s+/g, ' ').trim();
  const headline = typeof article?.['headline'] === 'string' ? article['headline'] : undefined;
  const title =
    tags.meta('og:title', 'twitter:title') ?? documentTitle ?? headline ?? tags.firstText('h1')?.trim() ?? '';

  const published =
    tags.meta('article:published_time', 'og:published_time', 'datePublished', 'date', 'dc.date', 'DC.date.issued', 'pubdate') ??
    (typeof article?.['datePublished'] === 'string' ? article['datePublished'] : undefined) ??
    tags.firstDatetime ??
    undefined;

  return {
    title: title.replace(/\s+/g, ' ').trim(),
    description: tags.meta('description', 'og:description', 'twitter:description'),
    siteName: tags.meta('og:site_name', 'application-name'),
    canonicalUrl: resolveUrl(tags.link('canonical')?.['href'], baseUrl),
    language: htmlLanguage ?? ogLocale?.replace('_', '-'),
    publishedDate: toIsoDate(published),
    isNews:
      !!article && types(article).some((type) => NEWS_TYPES.has(type)) ||
      ogType === 'article' && !!tags.meta('article:published_time'),
    isUnsafe: labelledAdult(tags, nodes),
    contentLanguageHints: hints,
  };
}
