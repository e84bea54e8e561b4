import {
  detectBlockPage,
  type ExtractedLinks,
  extractHtml,
  extractLinks,
  extractLinksAndTextSize,
  extractPage,
  extractPdf,
  extractPlainText,
  type IndexedPage,
  type IndexedPageInput,
  indexedPageInputOf,
  indexedPageOf,
  type WebPage,
} from '@sift/content-extraction';

/** An HTML response (fetched or rendered) to judge and, if asked, turn into a WebPage, its links and its index entry. */
export interface HtmlDocument {
  html: string;
  status: number;
  /** The title the browser reported; read from the HTML when absent. */
  title?: string;
  baseUrl: string;
  url: string;
  includeImages: boolean;
  /** False when no page is needed: an error status (the verdict only), or a map that reads only the links. */
  extract: boolean;
  /** The page's links too (a crawl follows them); with `extract` false, the links alone. */
  links?: boolean;
  /** With `extract` false: the length of the text as served too (a map tells a script's shell by it). */
  textSize?: boolean;
  /**
   * The response is known to be content, not a block page: its bytes are those a stored page was made from (an
   * unchanged response), and a blocked response is never stored. The verdict is not taken again.
   */
  judged?: boolean;
  /** The page's index entry too, when the page is to be stored (PageRepository.save's `indexed`). */
  index?: boolean;
}

/**
 * The version of what an 'html' task makes of a document (block verdict, scripts, page). The extractor stores a page
 * with the digest of the response it came from and this version (sourceFingerprintOf), and takes the stored page for a
 * later response with the same digest instead of parsing it again; so any change to what extraction makes of a page
 * must raise it, or stored pages would go on standing for what the new code would make. html-analysis-version.spec.ts
 * records the output this version makes of a set of pages and fails when it changes. 2: text in composed form (NFC),
 * a block holding the page's articleBody kept through boilerplate removal, a `<meta charset>` past the first 1,024
 * bytes followed (the Git pages' output is unchanged: same digest). 3: captions and credits marked by class outside
 * `<figure>` removed (same digest). 4: disclaimers, affiliate notices, legends and comment sections named in German,
 * French or Spanish removed (same digest). 5: the article body a page states in its JSON-LD, when its markup shows a
 * third of it or less (same digest). 6: an article beside a long table whose rows Readability preferred (same digest).
 * 7: short lines stating a copyright removed from the content (same digest). 8: text hidden by framework classes,
 * datelines, call-to-action and author boxes, long captions and the caption beside a picture in a picture box removed; a
 * heading's id read as its anchor, not as a role (ten Git pages get back headings such as "Options related to merging":
 * new digest). 9: the label or heading right before a link list the pruner removes goes with it; anchors (`<a name>`)
 * and mailto:/tel: links are not link text (three Git pages keep a line, a heading and a list entry holding an e-mail
 * address: new digest). 10: an article's lead that the template names as one ("lead", "intro", "standfirst"…) and
 * puts in the title block just before the content is put before the content (same digest). 11: the boxes after the
 * article's own box in Readability's choice of its wrapper dropped when none is prose (same digest). 12: "hidden"
 * inside a compound class name ("hidden-xs", "field--label-hidden") no longer weighs against a block in Readability
 * (same digest). 13: embedded posts kept through boilerplate removal; a figure's text beside its picture outside
 * <figcaption>, and the caption in a box of no name beside a picture, removed (same digest).
 */
export const HTML_ANALYSIS_VERSION = 13;

/** Everything the acquisition pipeline decides from an HTML document, computed off its event loop. */
export interface HtmlAnalysis {
  /** Why the response is a block, challenge or captcha page; null for content. */
  blockReason: string | null;
  hasScripts: boolean;
  /** Absent when blocked, not asked for, or when extraction threw (then `extractionError` says why). */
  page?: WebPage;
  /** When asked for (`links`) and not blocked. */
  links?: ExtractedLinks;
  /** The length of the page's text as served, when only its links were read and it was asked for (`textSize`). */
  textChars?: number;
  /** The page's index entry, when asked for (`index`) and the page was made. */
  indexed?: IndexedPage;
  extractionError?: string;
}

/** One fetched document to parse, as plain data so it crosses a thread boundary unchanged. */
export type ContentParsingTask =
  /** An HTML response, fetched or rendered: block-page verdict, scripts, and what the caller asked of it. */
  | ({ kind: 'html' } & HtmlDocument)
  | { kind: 'pdf'; data: Uint8Array; url: string; requestedUrl: string; maxPages: number; index?: boolean }
  | { kind: 'text'; text: string; url: string; requestedUrl: string; index?: boolean }
  /** A page to store whose index entry was not made with it (imports, tests). */
  | ({ kind: 'index' } & IndexedPageInput);

export type ContentParsingResult =
  | { kind: 'html'; analysis: HtmlAnalysis }
  | { kind: 'page'; page: WebPage; indexed?: IndexedPage }
  | { kind: 'index'; indexed: IndexedPage };

/**
 * Runs in a parsing thread (or inline): untrusted bytes in, plain data out. Even the regular expressions over the
 * raw HTML (title, block markers, scripts) run here: on megabytes of crafted markup they are not cheap either.
 * Copies out plain fields only: the extractor's objects must not carry anything a structured clone would refuse or drop.
 */
export async function runTask(task: ContentParsingTask): Promise<ContentParsingResult> {
  switch (task.kind) {
    case 'html':
      return { kind: 'html', analysis: analyseHtml(task) };
    case 'pdf':
      return pageResult(plainPage(await extractPdf(task.data, task.url, task.requestedUrl, { maxPages: task.maxPages })), task.index);
    case 'text':
      return pageResult(plainPage(extractPlainText(task.text, task.url, task.requestedUrl)), task.index);
    case 'index': {
      const { kind: _kind, ...input } = task;
      return { kind: 'index', indexed: indexedPageOf(input) };
    }
  }
}

function pageResult(page: WebPage, index: boolean | undefined): ContentParsingResult {
  return index ? { kind: 'page', page, indexed: indexedPageOf(indexedPageInputOf(page)) } : { kind: 'page', page };
}

function analyseHtml(document: HtmlDocument): HtmlAnalysis {
  const blockReason = document.judged ? null : detectBlockPage({ status: document.status, html: document.html, title: document.title ?? titleOf(document.html) });
  const hasScripts = /<script\b/i.test(document.html);
  if (blockReason) return { blockReason, hasScripts };
  if (!document.extract) {
    if (!document.links) return { blockReason, hasScripts };
    if (!document.textSize) return { blockReason, hasScripts, links: plainLinks(extractLinks(document.html, document.baseUrl)) };
    const { links, textChars } = extractLinksAndTextSize(document.html, document.baseUrl);
    return { blockReason, hasScripts, links: plainLinks(links), textChars };
  }
  try {
    const options = { baseUrl: document.baseUrl, url: document.url, includeImages: document.includeImages };
    // Links are read from the same parse as the page, before boilerplate removal rewrites the tree.
    const made = document.links ? extractPage(document.html, options) : { page: extractHtml(document.html, options), links: undefined };
    const page = plainPage(made.page);
    return {
      blockReason,
      hasScripts,
      page,
      ...(made.links ? { links: plainLinks(made.links) } : {}),
      ...(document.index ? { indexed: indexedPageOf(indexedPageInputOf(page)) } : {}),
    };
  } catch (error) {
    return { blockReason, hasScripts, extractionError: error instanceof Error ? error.message : String(error) };
  }
}

function titleOf(html: string): string {
  return /<title[^>]*>([^<]*)<\/title>/i.exec(html)?.[1]?.trim() ?? '';
}

function plainPage(page: WebPage): WebPage {
  return { ...page, images: page.images.map(({ url, alt }) => ({ url, alt })), countryHints: [...page.countryHints] };
}

function plainLinks({ links, canonicalUrl, robotsNoFollow }: ExtractedLinks): ExtractedLinks {
  return {
    links: links.map(({ url, text, context, nofollow }) => ({ url, text, context, nofollow })),
    canonicalUrl,
    robotsNoFollow,
  };
}
