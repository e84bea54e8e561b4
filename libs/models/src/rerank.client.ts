import { modelFailure, modelValue, type ModelOutcome } from './model-outcome';
import type { ModelCallOptions, ModelServer } from './model-server';

/**
 * The two rerank wire formats: `tei`, text-embeddings-inference's `POST {base}/rerank` with `{ query, texts }`
 * answering `[{ index, score }]`; `cohere`, the Cohere and Jina API (`POST {base}/rerank` with `{ model, query,
 * documents, top_n }` answering `{ results: [{ index, relevance_score }] }`), which vLLM and llama.cpp's server
 * speak too.
 */
export type RerankApi = 'tei' | 'cohere';

/** One passage's score, by its position in the passages asked about. */
export interface RerankScore {
  index: number;
  score: number;
}

/**
 * The format a base URL most likely speaks when RERANK_API is `auto`: an API versioned in its path (https://api.jina.ai/v1,
 * https://api.cohere.com/v2, http://vllm:8000/v1) is Cohere's, a bare server (http://tei:8080) text-embeddings-inference's.
 */
export function likelyRerankApi(baseUrl: string): RerankApi {
  return /\/v\d+\/?$/.test(new URL(baseUrl).pathname) ? 'cohere' : 'tei';
}

/**
 * A reranker: scores each passage against the query (a cross-encoder reads both together). Answers with every
 * passage's score, best first; a failure is a value, and the caller keeps its own order. With `auto`, a 4xx from
 * the guessed format tries the other one once, and the one that answers is kept.
 */
export class RerankClient {
  private api: RerankApi;
  private settled: boolean;

  constructor(
    private readonly server: ModelServer,
    /** RERANK_MODEL: sent in the Cohere format (a text-embeddings-inference server serves one model). */
    readonly model: string,
    api: RerankApi | 'auto',
    baseUrl: string,
  ) {
    this.api = api === 'auto' ? likelyRerankApi(baseUrl) : api;
    this.settled = api !== 'auto';
  }

  async rerank(query: string, passages: readonly string[], options: ModelCallOptions): Promise<ModelOutcome<RerankScore[]>> {
    if (passages.length === 0) return modelValue([]);
    let answer = await this.server.post('rerank', this.bodyFor(this.api, query, passages), options);
    if (!this.settled && !answer.ok && (answer.failure.status ?? 0) >= 400 && (answer.failure.status ?? 0) < 500) {
      const other: RerankApi = this.api === 'tei' ? 'cohere' : 'tei';
      const retried = await this.server.post('rerank', this.bodyFor(other, query, passages), options);
      if (retried.ok) this.api = other;
      answer = retried;
    }
    if (answer.ok) this.settled = true;
    return this.server.settle(answer.ok ? scoresOf(answer.value, passages.length) : answer);
  }

  private bodyFor(api: RerankApi, query: string, passages: readonly string[]): unknown {
    return api === 'tei' ? { query, texts: passages } : { model: this.model, query, documents: passages, top_n: passages.length };
  }
}

/** Either format's answer (both are read, whichever was asked): every passage scored once, finite, best first. */
function scoresOf(body: unknown, count: number): ModelOutcome<RerankScore[]> {
  const entries = Array.isArray(body) ? body : (body as { results?: unknown } | null)?.results;
  if (!Array.isArray(entries)) return modelFailure('malformed', 'the rerank answer is neither a list nor { results }');
  const scores: RerankScore[] = [];
  const seen = new Set<number>();
  for (const entry of entries as { index?: unknown; score?: unknown; relevance_score?: unknown }[]) {
    const index = entry?.index;
    const score = entry?.score ?? entry?.relevance_score;
    if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= count || seen.has(index)) {
      return modelFailure('malformed', `a rerank score has no usable index (${String(index)})`);
    }
    if (typeof score !== 'number' || !Number.isFinite(score)) return modelFailure('not-finite', `a rerank score is ${String(score)}`);
    seen.add(index);
    scores.push({ index, score });
  }
  if (scores.length !== count) return modelFailure('malformed', `expected ${count} rerank scores, got ${scores.length}`);
  return modelValue(scores.sort((left, right) => right.score - left.score || left.index - right.index));
}
