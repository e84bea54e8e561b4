import { Bm25Index, CHUNK_SEPARATOR, chunkText, tokenize } from '@sift/ranking';

// Words that say how to crawl rather than what to find ("find all pages about …").
const INSTRUCTION_STOP_WORDS = new Set([
  'a', 'about', 'all', 'an', 'and', 'any', 'are', 'as', 'at', 'be', 'by', 'can', 'content', 'do', 'docs',
  'documentation', 'does', 'each', 'every', 'find', 'for', 'from', 'get', 'give', 'how', 'i', 'in', 'info',
  'information', 'into', 'is', 'it', 'its', 'list', 'look', 'me', 'my', 'of', 'on', 'only', 'or', 'page', 'pages',
  'please', 'related', 'regarding', 'section', 'sections', 'show', 'site', 'that', 'the', 'their', 'them', 'there',
  'these', 'this', 'those', 'to', 'use', 'want', 'we', 'what', 'when', 'where', 'which', 'who', 'why', 'with',
  'you', 'your',
]);

// Where a query word appears in a link, and how much that says about the page behind it.
const ANCHOR_WEIGHT = 3;
const URL_WEIGHT = 2;
const CONTEXT_WEIGHT = 1;

// A page's title and address name its subject; its headings name its parts; its body mentions things.
const TITLE_OR_URL_MATCH = 1;
const HEADING_MATCH = 0.25;
const NAMING_WEIGHT = 2;
const BODY_WEIGHT = 1;
const INCOMING_WEIGHT = 1;
// Incoming links that mention a word this many times give it half its incoming weight.
const INCOMING_HALF_SATURATION = 2;
const PROXIMITY_WEIGHT = 0.5;
// BM25's term-frequency saturation and length normalisation, applied to the body alone.
const BODY_K1 = 4;
const BODY_B = 1;
// Two different query words this close together in the body read as the phrase the caller meant.
const PROXIMITY_WINDOW = 4;
// Pairs seen this often give half the proximity bonus; more add less and less.
const PROXIMITY_HALF_SATURATION = 2;
/**
 * Below this many pages a crawl is too small a sample to say which words are common, so every query word counts
 * the same; above it, only a word in more than half the pages (the site's own name, say) is discounted.
 */
const MIN_PAGES_FOR_COMMON_WORDS = 20;
const COMMON_WORD_FLOOR = 0.2;
/** A page is kept when its score reaches this share of the best page's score (and it matches at least one word). */
export const RELEVANCE_THRESHOLD = 0.3;

export interface LinkCandidate {
  url: URL;
  text: string;
  context: string;
}

export interface RankablePage {
  url: string;
  title?: string;
  /** Markdown or plain text; markdown headings (`# …`) count as headings. */
  content: string;
  /** Anchor text and surrounding text of the links other crawled pages point at this page with. */
  incoming?: string[];
}

interface PageFields {
  naming: Set<string>;
  headings: Set<string>;
  body: string[];
  incoming: string[][];
}

/**
 * Lexical relevance of links, pages and chunks to a crawl's natural-language instructions. It needs no LLM:
 * words are reduced to a light stem so "merging branches" meets "git-merge" and "branch", and every content word
 * of the instructions weighs the same, because document frequencies in one crawled site say more about the site
 * than about the words (in a Git manual "branch" is rarer in titles than "merge", yet no more important).
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
   * Relevance of every page, 0 for a page that matches no query word. Per word: named in the title or URL (full),
   * in a heading (half), and its saturated, length-normalised frequency in the body; the sums are shares of all
   * query words, so a page naming every word beats one naming a single word. Query words close together in the
   * body add a proximity bonus.
   */
  scorePages(pages: RankablePage[]): number[] {
    const fields = pages.map(pageFields);
    const weights = this.termWeights(fields);
    const totalWeight = this.terms.reduce((sum, term) => sum + (weights.get(term) ?? 0), 0);
    if (totalWeight === 0) return pages.map(() => 0);
    const averageLength = fields.reduce((sum, page) => sum + page.body.length, 0) / Math.max(1, fields.length);

    return fields.map((page) => {
      const frequencies = new Map<string, number>();
      for (const token of page.body) frequencies.set(token, (frequencies.get(token) ?? 0) + 1);
      const normaliser = BODY_K1 * (1 - BODY_B + (BODY_B * page.body.length) / Math.max(1, averageLength));
      let naming = 0;
      let body = 0;
      let incoming = 0;
      for (const term of this.terms) {
        const weight = weights.get(term) ?? 0;
        if (page.naming.has(term)) naming += weight * TITLE_OR_URL_MATCH;
        else if (page.headings.has(term)) naming += weight * HEADING_MATCH;
        const frequency = frequencies.get(term) ?? 0;
        if (frequency > 0) body += (weight * frequency) / (frequency + normaliser);
        const mentions = page.incoming.filter((description) => description.includes(term)).length;
        incoming += (weight * mentions) / (mentions + INCOMING_HALF_SATURATION);
      }
      if (naming === 0 && body === 0 && incoming === 0) return 0;
      const lengthRatio = normaliser / BODY_K1;
      const fieldScore = (NAMING_WEIGHT * naming + BODY_WEIGHT * body + INCOMING_WEIGHT * incoming) / totalWeight;
      return fieldScore + PROXIMITY_WEIGHT * this.proximity(page, lengthRatio);
    });
  }

  /** Scores of `scorePages`, keeping the pages that reach RELEVANCE_THRESHOLD of the best, best first (stable). */
  rankPages<Page extends RankablePage>(pages: Page[]): Page[] {
    const scores = this.scorePages(pages);
    const best = Math.max(0, ...scores);
    if (best === 0) return [];
    return pages
      .map((page, position) => ({ page, score: scores[position], position }))
      .filter((scored) => scored.score > 0 && scored.score >= RELEVANCE_THRESHOLD * best)
      .sort((left, right) => right.score - left.score || left.position - right.position)
      .map((scored) => scored.page);
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

  /** Equal weights, except that in a large enough crawl a word found in most pages counts less. */
  private termWeights(fields: PageFields[]): Map<string, number> {
    const weights = new Map<string, number>();
    for (const term of this.terms) {
      if (fields.length < MIN_PAGES_FOR_COMMON_WORDS) {
        weights.set(term, 1);
        continue;
      }
      const share = fields.filter((page) => page.naming.has(term) || page.body.includes(term)).length / fields.length;
      weights.set(term, Math.max(COMMON_WORD_FLOOR, Math.min(1, 2 * (1 - share))));
    }
    return weights;
  }

  /**
   * 0 to 1: how often two different query words occur within PROXIMITY_WINDOW words of each other, saturated and
   * relative to the page's length (a long manual has many such pairs without being about them).
   */
  private proximity(page: PageFields, lengthRatio: number): number {
    if (this.terms.length < 2) return 0;
    const pairs = [page.body, ...page.incoming].reduce((sum, tokens) => sum + this.closePairs(tokens), 0);
    return pairs === 0 ? 0 : pairs / (pairs + PROXIMITY_HALF_SATURATION * Math.max(1, lengthRatio));
  }

  private closePairs(tokens: string[]): number {
    const queryTerms = new Set(this.terms);
    let pairs = 0;
    let lastTerm: string | undefined;
    let lastPosition = -PROXIMITY_WINDOW - 1;
    tokens.forEach((token, position) => {
      if (!queryTerms.has(token)) return;
      if (lastTerm !== undefined && lastTerm !== token && position - lastPosition <= PROXIMITY_WINDOW) pairs += 1;
      lastTerm = token;
      lastPosition = position;
    });
    return pairs;
  }
}

function pageFields(page: RankablePage): PageFields {
  const headingLines = page.content.match(/^#{1,6}[ \t]+.+$/gm) ?? [];
  return {
    naming: new Set(stems(`${page.title ?? ''} ${decodeSafely(safePathname(page.url))}`)),
    headings: new Set(stems(headingLines.join(' '))),
    body: stems(page.content),
    incoming: (page.incoming ?? []).map(stems),
  };
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
