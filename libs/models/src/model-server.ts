import { FetchError, OperatorEndpoint, safeRequest } from '@sift/safe-fetch';
import type { EgressPolicy, OperatorEndpointOptions } from '@sift/safe-fetch';
import { modelFailure, modelValue, type ModelOutcome } from './model-outcome';
import { ModelServerHealth } from './model-server-health';

export interface ModelServerOptions {
  /** The server's base URL as the operator configured it (EMBEDDINGS_BASE_URL, RERANK_BASE_URL). */
  baseUrl: string;
  /** Sent as a bearer token when set. */
  apiKey?: string;
  /** Egress policy for everything but the model host (the app's FETCH_ALLOW_CIDRS). */
  policy: EgressPolicy;
  /** How the model host is re-resolved (default: the system resolver, every few seconds). */
  endpoint?: OperatorEndpointOptions;
}

export interface ModelCallOptions {
  /** Time for the whole exchange, the body included. */
  deadlineMs: number;
  signal?: AbortSignal;
}

/** The URL of `path` under a base URL, whether or not the base ends with a slash. */
export function endpointUrl(baseUrl: string, path: string): string {
  return new URL(path, baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`).toString();
}

/**
 * One operator-configured model server: its host trusted as configuration (OperatorEndpoint: loopback and private
 * addresses allowed for it alone), every call a JSON POST whose failure comes back as a ModelOutcome, counted and
 * logged once per outage by its health.
 */
export class ModelServer {
  private readonly endpoints = new Map<string, OperatorEndpoint>();

  constructor(
    private readonly options: ModelServerOptions,
    readonly health: ModelServerHealth,
  ) {}

  /** POSTs `body` to `path` under the base URL; the parsed JSON of a 2xx answer, else the failure. */
  async post(path: string, body: unknown, options: ModelCallOptions): Promise<ModelOutcome<unknown>> {
    const url = endpointUrl(this.options.baseUrl, path);
    let endpoint = this.endpoints.get(url);
    if (!endpoint) this.endpoints.set(url, (endpoint = new OperatorEndpoint(url, this.options.policy, this.options.endpoint)));
    let status: number;
    let text: string;
    try {
      const response = await safeRequest(url, {
        method: 'POST',
        body,
        headers: this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {},
        deadlineMs: Math.max(1, options.deadlineMs),
        ...(options.signal ? { signal: options.signal } : {}),
        policy: await endpoint.policy(),
      });
      ({ status, text } = response);
    } catch (error) {
      if (error instanceof FetchError && error.code === 'timeout') return modelFailure('timeout', `no answer within ${options.deadlineMs} ms`);
      return modelFailure('unreachable', error instanceof Error ? error.message : String(error));
    }
    if (status < 200 || status >= 300) return modelFailure('http-error', `${url} answered ${status}`, status);
    try {
      return modelValue(JSON.parse(text) as unknown);
    } catch {
      return modelFailure('malformed', `${url} answered ${status} with a body that is not JSON`);
    }
  }

  /** Records what a call came to: a failure counted (and logged if it starts an outage), a success ending one. */
  settle<T>(outcome: ModelOutcome<T>): ModelOutcome<T> {
    if (outcome.ok) this.health.answered();
    else this.health.failed(outcome.failure);
    return outcome;
  }
}
