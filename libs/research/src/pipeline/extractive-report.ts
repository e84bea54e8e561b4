import { quotableSentences, type RankedSentence, SentenceRanker, tokenOverlap } from '@sift/llm';
import { CitationOrder, sourceList } from './citation-style';
import type { CitationFormat } from './citation-style';
import { keywordsOf } from './research-plan';
import type { ResearchSection } from './research-plan';
import type { ResearchRequest } from './research-pipeline';
import type { SourcePage } from './source-page';

/** Sentences per section each output_length aims for (a section may have fewer when its sources say less). */
export const SENTENCES_PER_SECTION: Record<ResearchRequest['outputLength'], number> = { short: 2, standard: 4, long: 7 };
// Pages found by a section's own searches speak to it first.
const OWN_SEARCH_WEIGHT = 1.5;
// include_domains: their pages' sentences are quoted first when about as relevant as the others.
const PREFERRED_WEIGHT = 1.5;
// Above this token overlap two sentences say the same thing (a page quoting another).
const NEAR_COPY = 0.6;

export interface QuotedSentence {
  text: string;
  page: SourcePage;
}

/** Every quotable sentence of the pages once, with the page it comes from, in page rank order. */
export function sentencePool(pages: SourcePage[]): QuotedSentence[] {
  const seen = new Set<string>();
  return pages.flatMap((page) =>
    quotableSentences(page.content)
      .filter((text) => !seen.has(text) && seen.add(text))
      .map((text) => ({ text, page })),
  );
}

/** Picks the best-supported sentences for queries, skipping ones already used and near-copies of them. */
export class SentencePicker {
  private readonly ranker: SentenceRanker;
  private readonly used: string[][] = [];
  private readonly usedPositions = new Set<number>();
  private readonly orders = new Map<string, RankedSentence[]>();

  constructor(
    readonly sentences: QuotedSentence[],
    private readonly pages: SourcePage[],
  ) {
    this.ranker = new SentenceRanker(sentences.map((sentence) => sentence.text));
  }

  /** The sentences that support the query by their words, best first, pages of the section's own searches weighing more. */
  ranked(query: string, ownQueries: string[] = []): RankedSentence[] {
    const weightOf = (position: number) => {
      const page = this.sentences[position].page;
      const own = page.queries.some((query) => ownQueries.includes(query)) ? OWN_SEARCH_WEIGHT : 1;
      const preferred = page.preferred ? PREFERRED_WEIGHT : 1;
      return own * preferred * (1 + 1 / (2 + this.pages.indexOf(page)));
    };
    // Question words ("what", "how") are rare in prose, so they would weigh most and match least.
    return this.ranker.rank(keywordsOf(query).join(' '), weightOf);
  }

  /** From now on `pick(query)` takes these sentences in this order (the reranker's) instead of ranking by words. */
  reorder(query: string, order: RankedSentence[]): void {
    this.orders.set(query, order);
  }

  /** The best `count` sentences for the query not quoted yet, unless `evidenceOnly` (a number or a yes/no may share its evidence). */
  pick(query: string, count: number, ownQueries: string[] = [], evidenceOnly = false): QuotedSentence[] {
    const picked: QuotedSentence[] = [];
    for (const entry of this.orders.get(query) ?? this.ranked(query, ownQueries)) {
      if (picked.length >= count) break;
      if (evidenceOnly) {
        picked.push(this.sentences[entry.position]);
        continue;
      }
      if (this.usedPositions.has(entry.position) || this.used.some((tokens) => tokenOverlap(tokens, entry.tokens) > NEAR_COPY)) continue;
      this.usedPositions.add(entry.position);
      this.used.push(entry.tokens);
      picked.push(this.sentences[entry.position]);
    }
    return picked;
  }
}

/**
 * A page's sentence as a report quotes it: between quotation marks, its own double quotes turned single (a quote
 * within a quote), so nothing the page says can close the quotation early and go on in the report's own voice.
 */
export function quotation(text: string): string {
  return `“${text.replace(/"/g, "'").replace(/“/g, '‘').replace(/”/g, '’')}”`;
}

/** What each section of the report is written for: the question itself first, then each part of the plan with its searches. */
export function sectionQueries(request: ResearchRequest, sections: ResearchSection[]): { section: ResearchSection; query: string }[] {
  return sections.map((section, position) => ({ section, query: position === 0 ? request.input : `${section.title} ${section.queries.join(' ')}` }));
}

export interface WrittenReport {
  /** The report in the pieces it is streamed in: title, each section, the source list. */
  pieces: string[];
  order: CitationOrder;
}

/**
 * The report without a model: a title, one section per part of the plan made of the sentences of the pages that
 * best support it, each in quotation marks and followed by its citation, then the source list. Every sentence is
 * quoted as written and reads as what its source says, never as the report's own words (a page may say anything).
 */
export function extractiveReport(request: ResearchRequest, sections: ResearchSection[], picker: SentencePicker): WrittenReport {
  const format: CitationFormat = request.citationFormat;
  const order = new CitationOrder();
  const written = sectionQueries(request, sections)
    .map(({ section, query }) => {
      const sentences = picker.pick(query, SENTENCES_PER_SECTION[request.outputLength], section.queries);
      if (sentences.length === 0) return null;
      const body = sentences.map((sentence) => `${quotation(sentence.text)} ${order.cite(format, sentence.page.source)}`).join(' ');
      return `## ${section.title}\n\n${body}`;
    })
    .filter((section): section is string => section !== null);
  const title = `# ${request.input.replace(/\s+/g, ' ').trim()}`;
  if (written.length === 0) return { pieces: [`${title}\n\nThe sources found do not answer this question.`], order };
  return { pieces: [title, ...written, sourceList(format, order.sources)].map((piece, position) => (position === 0 ? piece : `\n\n${piece}`)), order };
}
