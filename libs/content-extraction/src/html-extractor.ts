import { removeBoilerplate } from './boilerplate-cleaner';
import { pruneContent } from './content-pruner';
import { absolutizeContentUrls } from './content-urls';
import { contentMarkup } from './content-markup';
import { countryHintsOf } from './country-hints';
import { DocumentTags } from './document-tags';
import { ExtractedLinks, ExtractOptions } from './extract-options';
import { elementToText } from './element-to-text';
import { faviconFromTags } from './favicon';
import { elementToMarkdown } from './html-to-markdown';
import { collectImages } from './image-collector';
import { leadCandidates, withLead } from './lead-paragraph';
import { linksFromMarkup } from './link-extractor';
import { MarkupDocument, parseMarkup } from './markup-tree';
import { findMainContent } from './main-content';
import { readPageMetadata, structuredArticleBody } from './page-metadata';
import { noscriptTextLength, parseDocument, readJsonLd, stripNonContent, withNoscriptContent } from './parse-document';
import { WebPage, webPageOf } from './web-page';

/** A page and its links from one parse, for crawlers; the links are the crawler's, not part of the page. */
export interface PageWithLinks {
  page: WebPage;
  links: ExtractedLinks;
}

/**
 * The page from its markup tree: metadata from the whole page, then boilerplate removal on the tree, and only what
 * is left is built as a DOM for the content scorer (building the DOM is most of the cost of a parse).
 */
function pageOfMarkup(markup: MarkupDocument, tags: DocumentTags, jsonLd: unknown[], options: ExtractOptions): WebPage {
  const { baseUrl } = tags.baseUrl(options.baseUrl);
  const metadata = readPageMetadata(tags, jsonLd, baseUrl);
  const favicon = faviconFromTags(tags, options.baseUrl);
  const previewImage = tags.metas.find((meta) => meta['property'] === 'og:image' || meta['name'] === 'twitter:image')?.['content'];

  const leads = leadCandidates(markup);
  const furniture = removeBoilerplate(markup);
  const cleanHtml = contentMarkup(markup);
  const content = findMainContent(parseDocument(cleanHtml), () => parseDocument(cleanHtml));
  if (content) {
    withLead(content, leads, furniture);
    pruneContent(content);
    absolutizeContentUrls(content, baseUrl);
  }

  const text = content ? elementToText(content) : '';
  return webPageOf({
    url: options.url,
    finalUrl: options.baseUrl,
    title: metadata.title,
    description: metadata.description,
    markdown: content && options.format !== 'text' ? elementToMarkdown(content) : text,
    text,
    language: metadata.language,
    publishedDate: metadata.publishedDate,
    isNews: metadata.isNews,
    isUnsafe: metadata.isUnsafe,
    countryHints: countryHintsOf(metadata.contentLanguageHints),
    images: options.includeImages === false ? [] : collectImages(content, previewImage, baseUrl),
    favicon,
  });
}

/** Below this many characters of text a page may have its content in its `<noscript>` blocks instead. */
const SHORT_PAGE_CHARS = 250;
/** `<noscript>` blocks with at least this much text, and more than the page shows, can be its content. */
const NOSCRIPT_CONTENT_CHARS = 500;

/**
 * The page read again with its `<noscript>` blocks' markup in place, when they hold the content its scripts would
 * write: a Blogger post is a script template followed by a `<noscript>` copy, so without scripts the page is a
 * title. A browser render would find the same text, at the cost of a render; a short `<noscript>` notice ("please
 * enable JavaScript") or a long page is left as it is.
 */
function withNoscriptFallback(page: WebPage, html: string, jsonLd: unknown[], options: ExtractOptions): WebPage {
  const shown = page.text.trim().length;
  if (shown >= SHORT_PAGE_CHARS) return page;
  const noscriptLength = noscriptTextLength(html);
  if (noscriptLength < NOSCRIPT_CONTENT_CHARS || noscriptLength <= shown) return page;
  const withNoscript = withNoscriptContent(html);
  const markup = parseMarkup(stripNonContent(withNoscript));
  const fallback = pageOfMarkup(markup, new DocumentTags(markup), jsonLd, options);
  return fallback.text.trim().length > shown ? fallback : page;
}

/** A stated article body at least this long, */
const STRUCTURED_BODY_MIN_CHARS = 500;
/** and this many times the text the page's markup shows, is the article the page's scripts would render. */
const STRUCTURED_BODY_SHARE = 3;

/** Paragraphs of a stated article body: plain text, or markup (some sites put HTML in it) read as text. */
function structuredBodyText(body: string): string {
  const text = /<[a-z][^>]*>/i.test(body) ? elementToText(parseDocument(body).body) : body;
  return text
    .split(/\n\s*\n|\r?\n/)
    .map((paragraph) => paragraph.replace(/\s+/g, ' ').trim())
    .filter(Boolean)
    .join('\n\n');
}

/**
 * The article body the page states in its JSON-LD (structuredArticleBody), when the markup shows much less of it: a
 * page whose scripts render the article (a client-side app) serves a teaser or a shell to a reader without them, and
 * its structured data is the article the site gives search engines. A browser render would find the same text, at
 * the cost of a render. Title, metadata, links and images stay the markup's.
 */
function withStructuredBodyFallback(page: WebPage, jsonLd: unknown[]): WebPage {
  const stated = structuredArticleBody(jsonLd);
  if (!stated) return page;
  const shown = page.text.replace(/\s+/g, ' ').trim().length;
  const statedLength = stated.replace(/\s+/g, ' ').trim().length;
  if (statedLength < STRUCTURED_BODY_MIN_CHARS || statedLength <= shown * STRUCTURED_BODY_SHARE) return page;
  const text = structuredBodyText(stated);
  // The stated body is the page's own words, but not its markup: the markdown is its paragraphs.
  const { contentHash: _previousHash, ...fields } = page;
  return webPageOf({ ...fields, text, markdown: text });
}

/** The page's content with the fallbacks for pages whose scripts render it: `<noscript>` copies, stated article bodies. */
function withFallbacks(page: WebPage, html: string, jsonLd: unknown[], options: ExtractOptions): WebPage {
  return withStructuredBodyFallback(withNoscriptFallback(page, html, jsonLd, options), jsonLd);
}

/** Main content of an HTML page as markdown and plain text, with its metadata, images and favicon. */
export function extractHtml(html: string, options: ExtractOptions): WebPage {
  const markup = parseMarkup(stripNonContent(html));
  const jsonLd = readJsonLd(html);
  return withFallbacks(pageOfMarkup(markup, new DocumentTags(markup), jsonLd, options), html, jsonLd, options);
}

/**
 * Content and links of a page from one parse, for crawlers. Links are read first: boilerplate removal rewrites
 * the tree and would lose the navigation links a crawler follows.
 */
export function extractPage(html: string, options: ExtractOptions): PageWithLinks {
  const markup = parseMarkup(stripNonContent(html));
  const tags = new DocumentTags(markup);
  const links = linksFromMarkup(markup, tags, options.baseUrl);
  const jsonLd = readJsonLd(html);
  return { page: withFallbacks(pageOfMarkup(markup, tags, jsonLd, options), html, jsonLd, options), links };
}
