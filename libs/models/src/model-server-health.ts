import { Counter, register, type Registry } from 'prom-client';
import type { ModelFailure } from './model-outcome';

const NAME = 'sift_model_fallbacks_total';

/** The model server a client calls, as the metrics and the log name it. */
export type ModelServerName = 'embeddings' | 'rerank';

/**
 * Calls to the operator's model servers that gave nothing usable, by server and reason, in a process's registry. A
 * timeout or a 5xx also shows in sift_upstream_errors_total (it sees HTTP only); a wrong dimension or NaN only here.
 */
export function modelFallbacksCounter(registry: Registry = register): Counter<'upstream' | 'reason'> {
  const existing = registry.getSingleMetric(NAME);
  if (existing) return existing as Counter<'upstream' | 'reason'>;
  return new Counter({
    name: NAME,
    help: 'Calls to a model server (embeddings, rerank) whose answer could not be used, so the caller ranked without it, by reason.',
    labelNames: ['upstream', 'reason'],
    registers: [registry],
  });
}

export type ModelLog = (level: 'warn' | 'log', message: string) => void;

/**
 * The state of one model server as its callers see it: every failure is counted, but only the first of an outage
 * is logged (a search per second against a dead server must not write a line per search), and so is the first
 * success after it.
 */
export class ModelServerHealth {
  private failing = false;
  private readonly fallbacks: Counter<'upstream' | 'reason'>;

  constructor(
    readonly name: ModelServerName,
    private readonly log: ModelLog = () => undefined,
    registry: Registry = register,
  ) {
    this.fallbacks = modelFallbacksCounter(registry);
  }

  failed(failure: ModelFailure): void {
    this.fallbacks.inc({ upstream: this.name, reason: failure.reason });
    if (this.failing) return;
    this.failing = true;
    this.log('warn', `the ${this.name} model server failed (${failure.reason}: ${failure.message}); ranking without it until it answers again`);
  }

  answered(): void {
    if (!this.failing) return;
    this.failing = false;
    this.log('log', `the ${this.name} model server answers again`);
  }
}
