import { CHUNK_SEPARATOR, chunkText, rankChunks } from '@sift/ranking';
import { sectionQueries, type SentencePicker } from './extractive-report';
import type { ResearchSection } from './research-plan';
import type { ResearchDependencies, ResearchRequest } from './research-pipeline';
import type { SourcePage } from './source-page';

type Rerank = NonNullable<ResearchDependencies['rerank']>;

/**
 * Sentences per section the reranker orders: the best by their words, several times the seven a long section quotes
 * (a reranker's cost is per passage, and a sentence that shares no word with the section is not one it may quote).
 */
export const RERANKED_SENTENCES = 24;
/** Chunks per page the reranker chooses among for the model's excerpts: the best by their words, twice those sent. */
const CANDIDATE_CHUNKS_PER_EXCERPT_CHUNK = 2;

/**
 * The extractive writer's choice by the operator's reranker: for each section, the sentences whose words support its
 * query are put in the order the cross-encoder reads them as answering it, and the section quotes the first of them.
 * The sections are asked at once, within `deadlineMs`; a section whose call fails or comes too late keeps the words'
 * order, today's choice. Returns how many sections the reranker ordered.
 */
export async function rerankSentences(rerank: Rerank, picker: SentencePicker, request: ResearchRequest, sections: ResearchSection[], deadlineMs: number): Promise<number> {
  const ordered = await Promise.all(
    sectionQueries(request, sections).map(async ({ section, query }) => {
      const candidates = picker.ranked(query, section.queries).slice(0, RERANKED_SENTENCES);
      if (candidates.length < 2) return false;
      const order = await rerank(query, candidates.map((candidate) => picker.sentences[candidate.position].text), { deadlineMs });
      if (!order) return false;
      picker.reorder(query, completeOrder(order, candidates.length).map((position) => candidates[position]));
      return true;
    }),
  );
  return ordered.filter(Boolean).length;
}

/**
 * The model's excerpts chosen by the operator's reranker: each page's best chunks by their words (twice as many as an
 * excerpt holds), all pages' in one call, and each page keeps the `chunksPerPage` the cross-encoder ranks highest, in
 * the page's own order. Null when the reranker failed or came too late: the excerpts are then chosen by words alone.
 */
export async function rerankedExcerpts(rerank: Rerank, question: string, pages: SourcePage[], chunksPerPage: number, deadlineMs: number): Promise<Map<string, string> | null> {
  const candidates = pages.flatMap((page) => {
    const chunks = chunkText(page.content);
    const query = `${question} ${page.queries.join(' ')}`;
    return rankChunks(chunks, query)
      .slice(0, chunksPerPage * CANDIDATE_CHUNKS_PER_EXCERPT_CHUNK)
      .map((scored) => ({ url: page.source.url, index: scored.index, text: chunks[scored.index] }));
  });
  if (candidates.length < 2) return null;
  const order = await rerank(question, candidates.map((candidate) => candidate.text), { deadlineMs });
  if (!order) return null;
  const kept = new Map<string, { index: number; text: string }[]>();
  for (const position of completeOrder(order, candidates.length)) {
    const candidate = candidates[position];
    const chosen = kept.get(candidate.url) ?? [];
    if (chosen.length < chunksPerPage) chosen.push(candidate);
    kept.set(candidate.url, chosen);
  }
  return new Map(
    [...kept].map(([url, chunks]) => [
      url,
      chunks
        .sort((left, right) => left.index - right.index)
        .map((chunk) => chunk.text)
        .join(CHUNK_SEPARATOR),
    ]),
  );
}

/** Every position below `count` once: the reranker's order, then any it left out (a top_n answer) in the order given. */
function completeOrder(order: number[], count: number): number[] {
  const seen = new Set<number>();
  const complete = order.filter((position) => Number.isInteger(position) && position >= 0 && position < count && !seen.has(position) && seen.add(position));
  for (let position = 0; position < count; position += 1) if (!seen.has(position)) complete.push(position);
  return complete;
}
