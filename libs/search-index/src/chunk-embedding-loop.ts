import { randomUUID } from 'node:crypto';
import type { ChunkEmbedder, EmbeddingPass } from './chunk-embedder';
import type { ChunkVectorStore } from './chunk-vector.store';

export interface ChunkEmbeddingLoopOptions {
  /** How often the loop looks for new chunks (default 10 s): one sequence read when nothing changed. */
  intervalMs?: number;
  /** Wait after a failed pass before the next (default 60 s), so a dead model server is not asked every interval. */
  retryAfterMs?: number;
  /** Each pass's outcome, for the worker's log. */
  onPass?: (pass: EmbeddingPass) => void;
  onError?: (error: unknown) => void;
}

/** How long the lease lasts without renewal: a crashed holder's lease lapses after it. */
const LEASE_MS = 120_000;

/**
 * The embedder run in the background of a worker: every interval, when pages were stored, removed or indexed again
 * since its last complete pass, it takes the embedding lease (one process of the deployment embeds at a time) and
 * runs a pass. Stopping waits for the batch under way.
 */
export class ChunkEmbeddingLoop {
  private readonly holder = `embedder-${randomUUID()}`;
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private readonly stopping = new AbortController();
  private embeddedAt?: number;
  private retryAt = 0;

  constructor(
    private readonly embedder: ChunkEmbedder,
    private readonly store: ChunkVectorStore,
    private readonly options: ChunkEmbeddingLoopOptions = {},
  ) {}

  start(): void {
    const tick = () => {
      this.running = this.once()
        .then(() => undefined)
        .catch((error: unknown) => this.options.onError?.(error))
        .finally(() => {
          if (!this.stopping.signal.aborted) this.timer = setTimeout(tick, this.options.intervalMs ?? 10_000);
        });
    };
    tick();
  }

  async stop(): Promise<void> {
    this.stopping.abort();
    clearTimeout(this.timer);
    await this.running;
    await this.store.releaseLease(this.holder).catch(() => undefined);
  }

  /** One look: a pass when the corpus changed since the last complete one and no failure is being waited out. */
  async once(): Promise<EmbeddingPass | undefined> {
    if (Date.now() < this.retryAt) return undefined;
    // A pass runs only when pages were stored, removed or indexed again since the last complete one.
    const changes = await this.store.corpusChanges();
    if (changes === this.embeddedAt) return undefined;
    if (!(await this.store.takeLease(this.holder, LEASE_MS))) return undefined;
    const pass = await this.embedder.embedPending(() => void this.store.takeLease(this.holder, LEASE_MS).catch(() => undefined), this.stopping.signal);
    this.options.onPass?.(pass);
    if (pass.failure) this.retryAt = Date.now() + (this.options.retryAfterMs ?? 60_000);
    else if (!this.stopping.signal.aborted) this.embeddedAt = changes;
    // With pgvector, the model's vectors get their HNSW index once there are some (made once, concurrently).
    if (pass.dimension !== null && pass.embedded > 0 && (await this.store.hasPgvector())) await this.store.ensureHnswIndex(pass.dimension);
    return pass;
  }
}
