import { Bm25Index, tokenize } from '@sift/ranking';

// A sentence ends at . ! ? followed by space and a capital, a digit or an opening quote or bracket.
const SENTENCE_BREAK = /(?<=[.!?]["”')]?)\s+(?=[\p{Lu}\p{N}"“(])/u;
const LIST_MARKER = /^\s*(?:[-*+]|\d{1,3}[.)])\s+/;
const FENCE = /^\s*(```|~~~)/;
// Lines that are never prose: headings, table rows, rules, link-only lines (menus).
const NOT_PROSE = /^\s*(?:#{1,6}\s|\||[-*_=]{3,}\s*$|\[[^\]]*\]\([^)]*\)\s*$)/;
const BOILERPLATE = /\b(?:cookies?|all rights reserved|skip to (?:main )?content|privacy policy|terms of (?:use|service)|sign (?:in|up)|log ?in|subscribe)\b|©/i;
// Characters that make a "sentence" code or markup rather than prose.
const CODE_CHARACTERS = /[{}[\]();=<>$\\/|@#%^~]/g;
const MINIMUM_QUERY_COVERAGE = 0.3;

/**
 * Markdown as its reader sees the words: links and images by their text, emphasis and inline-code marks dropped,
 * whitespace collapsed. A quoted sentence is checked against its source with this same normalisation.
 */
export function plainText(markdown: string): string {
  return markdown
    .replace(/!?\[([^\]\n]*)\]\([^)\n]*\)/g, '$1')
    .replace(/(\*\*|__|\*|_)(?=\S)([^\n]*?\S)\1(?![\p{L}\p{N}])/gu, '$2')
    .replace(/`+/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Paragraphs and list items of a markdown page, code blocks and non-prose lines left out. */
function proseBlocks(markdown: string): string[] {
  const blocks: string[] = [];
  let current: string[] = [];
  let inFence = false;
  const flush = () => {
    if (current.length > 0) blocks.push(current.join('\n'));
    current = [];
  };
  for (const line of markdown.split(/\r?\n/)) {
    if (FENCE.test(line)) {
      inFence = !inFence;
      flush();
      continue;
    }
    if (inFence || line.trim() === '' || NOT_PROSE.test(line)) {
      flush();
      continue;
    }
    if (LIST_MARKER.test(line)) flush();
    current.push(line.replace(LIST_MARKER, '').replace(/^\s*>\s?/, ''));
  }
  flush();
  return blocks;
}

function isQuotable(sentence: string): boolean {
  if (sentence.length < 25 || sentence.length > 400) return false;
  if (!/[.!?]["”')]?$/.test(sentence) || sentence.split(' ').length < 5) return false;
  if (BOILERPLATE.test(sentence)) return false;
  const visible = sentence.replace(/\s/g, '');
  const letters = visible.match(/\p{L}/gu)?.length ?? 0;
  const code = visible.match(CODE_CHARACTERS)?.length ?? 0;
  return letters / visible.length >= 0.7 && code / visible.length <= 0.04;
}

/**
 * The sentences of a page worth quoting, each exactly as `plainText` writes it (so found verbatim in the page's
 * plain text): prose only, whole sentences ending in punctuation, no navigation, boilerplate or code.
 */
export function quotableSentences(markdown: string): string[] {
  return proseBlocks(markdown)
    .flatMap((block) => plainText(block).split(SENTENCE_BREAK))
    .map((sentence) => sentence.trim())
    .filter(isQuotable);
}

/** Share of distinct tokens two texts have in common (Jaccard): near-copies score high. */
export function tokenOverlap(left: string[], right: string[]): number {
  const rightSet = new Set(right);
  const shared = new Set(left.filter((token) => rightSet.has(token))).size;
  const union = new Set([...left, ...right]).size;
  return union === 0 ? 0 : shared / union;
}

export interface RankedSentence {
  position: number;
  score: number;
  tokens: string[];
}

/** BM25 over sentences, for quoting the ones that best support a query. */
export class SentenceRanker {
  private readonly tokens: string[][];
  private readonly index: Bm25Index;

  constructor(sentences: string[]) {
    this.tokens = sentences.map((sentence) => tokenize(sentence));
    this.index = new Bm25Index(this.tokens);
  }

  /**
   * Sentences that support the query, best first, each score multiplied by `weightOf(position)`. A sentence must
   * cover a fair share of the query's idf mass: sharing only "in" or "the" is no support. A query word no sentence
   * uses weighs no more than the rarest word they do use: its own idf is the largest of all, and would leave every
   * sentence short of the share ("how long" asked of a text saying "spans 840 metres"), yet a query sharing only
   * "in" with the sources still finds no support.
   */
  rank(query: string, weightOf: (position: number) => number = () => 1): RankedSentence[] {
    const queryTokens = [...new Set(tokenize(query))];
    const used = queryTokens.filter((token) => this.index.documentFrequency(token) > 0);
    const rarestUsed = Math.max(0, ...used.map((token) => this.index.idf(token)));
    const queryWeight = queryTokens.reduce((sum, token) => sum + (used.includes(token) ? this.index.idf(token) : rarestUsed), 0);
    const supported = (sentenceTokens: string[]) => {
      const present = new Set(sentenceTokens);
      const covered = queryTokens.filter((token) => present.has(token)).reduce((sum, token) => sum + this.index.idf(token), 0);
      return queryWeight > 0 && covered / queryWeight >= MINIMUM_QUERY_COVERAGE;
    };
    return this.tokens
      .map((tokens, position) => ({ position, tokens, score: this.index.score(queryTokens, position) * weightOf(position) }))
      .filter((entry) => entry.score > 0 && supported(entry.tokens))
      .sort((left, right) => right.score - left.score);
  }
}
