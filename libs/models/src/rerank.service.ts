import type { RerankClient } from './rerank.client';

/** The passages' new order (positions in the list given), and whether a model made it. */
export interface RerankedOrder {
  order: number[];
  /** Each passage's model score by position; absent when the order is the one given. */
  scores?: number[];
  reranked: boolean;
}

/**
 * Reorders passages by the operator's reranker (advanced depth's best chunks, research's sentences). Without one, or
 * when it fails or is too slow, the order given is kept: a caller never waits past its deadline nor fails for it.
 */
export class RerankService {
  constructor(
    private readonly client: RerankClient | undefined,
    /** RERANK_TIMEOUT_MS: the most a call waits, whatever deadline it brings. */
    private readonly timeoutMs: number,
  ) {}

  get enabled(): boolean {
    return this.client !== undefined;
  }

  /** `deadlineMs`: the time the caller has left for it; the configured timeout caps it. */
  async rerank(query: string, passages: readonly string[], deadlineMs: number, signal?: AbortSignal): Promise<RerankedOrder> {
    const given = { order: passages.map((_passage, position) => position), reranked: false };
    const budget = Math.min(deadlineMs, this.timeoutMs);
    if (!this.client || passages.length < 2 || budget <= 0) return given;
    const outcome = await this.client.rerank(query, passages, { deadlineMs: budget, ...(signal ? { signal } : {}) });
    if (!outcome.ok) return given;
    const scores = new Array<number>(passages.length);
    for (const { index, score } of outcome.value) scores[index] = score;
    return { order: outcome.value.map((entry) => entry.index), scores, reranked: true };
  }
}
