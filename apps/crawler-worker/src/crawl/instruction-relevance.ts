import { Bm25Index, CHUNK_SEPARATOR, chunkText, tokenize } from '@sift/ranking';

// Words that say how to crawl rather than what to find ("find all pages about …").
const INSTRUCTION_STOP_WORDS = new Set([
  'a', 'about', 'all', 'an', 'and', 'any', 'are', 'as', 'at', 'be', 'by', 'can', 'content', 'do', 'docs',
  'documentation', 'each', 'every', 'find', 'for', 'from', 'get', 'give', 'how', 'i', 'in', 'info', 'information',
  'into', 'is', 'it', 'its', 'list', 'look', 'me', 'my', 'of', 'on', 'only', 'or', 'page', 'pages', 'please',
  'related', 'regarding', 'section', 'sections', 'show', 'site', 'that', 'the', 'their', 'them', 'there', 'these',
  'this', 'those', 'to', 'use', 'want', 'we', 'what', 'when', 'where', 'which', 'who', 'why', 'with', 'you', 'your',
]);

// Where a query word appears in a link, and how much that says about the page behind it.
const ANCHOR_WEIGHT = 3;
const URL_WEIGHT = 2;
const CONTEXT_WEIGHT = 1;
// Title and URL words describe the whole page, so they weigh more than a mention in the body.
const HEADING_WEIGHT = 2;

export interface LinkCandidate {
  url: URL;
  text: string;
  context: string;
}

export interface RankablePage {
  url: string;
  title?: string;
  content: string;
}

/**
 * Lexical relevance of links, pages and chunks to a crawl's natural-language instructions. It needs no LLM:
 * words are reduced to a crude stem so "merging branches" meets "git-merge" and "branch".
 */
export class InstructionRelevance {
  readonly terms: string[];

  constructor(instructions: string) {
    const words = tokenize(instructions).filter((word) => !INSTRUCTION_STOP_WORDS.has(word));
    // With nothing but stop words left, the instructions still carry what the caller typed.
    const kept = words.length > 0 ? words : tokenize(instructions);
    this.terms = Array.from(new Set(kept.map(stem)));
  }

  /** Scores a frontier candidate by the query words in its anchor text, its URL and the text around it. */
  scoreLink(link: LinkCandidate): number {
    const anchor = new Set(stems(link.text));
    const address = new Set(stems(`${link.url.hostname} ${decodeSafely(link.url.pathname)}`));
    const context = new Set(stems(link.context));
    let score = 0;
    for (const term of this.terms) {
      if (anchor.has(term)) score += ANCHOR_WEIGHT;
      if (address.has(term)) score += URL_WEIGHT;
      if (context.has(term)) score += CONTEXT_WEIGHT;
    }
    return score;
  }

  /**
   * BM25F-like score of every page over the crawl's own pages as the corpus: a page whose title or URL names
   * the subject outranks one that merely mentions it, and the body decides between those.
   */
  scorePages(pages: RankablePage[]): number[] {
    const headings = new Bm25Index(pages.map((page) => stems(`${page.title ?? ''} ${decodeSafely(safePathname(page.url))}`)));
    const bodies = new Bm25Index(pages.map((page) => stems(page.content)));
    return pages.map((_, position) => HEADING_WEIGHT * headings.score(this.terms, position) + bodies.score(this.terms, position));
  }

  /** The `count` best chunks of `content`, back in document order, joined by ` [...] `. */
  topChunks(content: string, count: number): string {
    const chunks = chunkText(content);
    if (chunks.length === 0) return '';
    const index = new Bm25Index(chunks.map((chunk) => stems(chunk)));
    return index
      .search(this.terms, count)
      .map((scored) => scored.index)
      .sort((left, right) => left - right)
      .map((position) => chunks[position])
      .join(CHUNK_SEPARATOR);
  }
}

function stems(text: string): string[] {
  return tokenize(text).map(stem);
}

/** A light suffix stripper (plural, -ing, -ed, final e): enough to join the inflections a query uses. */
export function stem(word: string): string {
  let base = word;
  if (base.length > 5 && base.endsWith('ies')) base = `${base.slice(0, -3)}y`;
  else if (base.length > 4 && /(?:ches|shes|sses|xes|zes)$/.test(base)) base = base.slice(0, -2);
  else if (base.length > 3 && base.endsWith('s') && !base.endsWith('ss') && !base.endsWith('us')) base = base.slice(0, -1);
  if (base.length > 5 && base.endsWith('ing')) base = base.slice(0, -3);
  else if (base.length > 4 && base.endsWith('ed')) base = base.slice(0, -2);
  if (base.length > 3 && base.endsWith('e')) base = base.slice(0, -1);
  // "merging" → "merg", "merge" → "merg"; doubled consonants from -ing/-ed ("stopping") are folded too.
  if (base.length > 3 && base[base.length - 1] === base[base.length - 2] && !/[aeiouls]/.test(base[base.length - 1])) {
    base = base.slice(0, -1);
  }
  return base;
}

function safePathname(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return '';
  }
}

function decodeSafely(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
