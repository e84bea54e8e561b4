import { isIP } from 'node:net';
import { z } from 'zod';
import { usableCpuCount } from './cpu-quota';

/**
 * Every setting Sift reads, validated once at start-up into a typed object (a bad value stops the process with
 * one clear line, not at 3 a.m.). Each fragment lists what one concern needs; apps compose the fragments they use.
 */
const integer = (fallback: number) => z.coerce.number().int().nonnegative().default(fallback);
const flag = (fallback: boolean) =>
  z.enum(['true', 'false', '1', '0', 'yes', 'no']).default(fallback ? 'true' : 'false').transform((value) => ['true', '1', 'yes'].includes(value));

/**
 * Default thread counts stop here: each parsing thread may hold PARSE_THREAD_HEAP_MB (512 MB) of heap, so a large
 * machine (or a container that sees the node's cores) must not multiply that by its core count. Kubernetes sets the
 * count from the pod's CPU limit instead (k8s/base).
 */
export const DEFAULT_THREAD_CAP = 4;

/**
 * A thread count: at least 1; when unset or left empty (as in `.env.example`), the CPUs this process may use (its
 * cgroup's CPU quota, not the host's core count) up to the cap.
 */
export const threadCount = () =>
  z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.coerce.number().int().min(1).default(Math.min(usableCpuCount(), DEFAULT_THREAD_CAP)),
  );

export const coreEnv = z.object({
  /** Postgres connection; the database is created on start if it does not exist. */
  DATABASE_URL: z.string().url().default('postgresql://postgres@127.0.0.1:5432/sift'),
  /** Redis connection for queues and rate limits; a database index in the path is honoured. */
  REDIS_URL: z.string().url().default('redis://127.0.0.1:6379'),
  /** Key prefix of the job queues in Redis; the gateway and the workers of one deployment share it. */
  QUEUE_PREFIX: z.string().min(1).default('sift'),
  /** How long a worker's lock on a running job lasts; a crashed worker's job is taken back after it (plus the check interval). */
  QUEUE_LOCK_DURATION_MS: integer(10_000),
  /** How often workers look for jobs whose worker died. */
  QUEUE_STALLED_INTERVAL_MS: integer(5_000),
  /** Nest log level: error, warn, log, debug. */
  SIFT_LOG_LEVEL: z.enum(['error', 'warn', 'log', 'debug', 'verbose']).default('log'),
});

/** Express's names for address ranges, accepted beside addresses and CIDRs. */
const NAMED_PROXY_RANGES = ['loopback', 'linklocal', 'uniquelocal'];

function isProxyAddressOrRange(entry: string): boolean {
  if (NAMED_PROXY_RANGES.includes(entry)) return true;
  const [address, prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  return prefix === undefined || (/^\d+$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128));
}

/**
 * Express's `trust proxy` from TRUST_PROXY: `false` (no proxy), a hop count (the client address is the one the
 * nearest N proxies vouch for), or the proxies' addresses and CIDRs. `true` is refused: it takes the left-most
 * X-Forwarded-For entry, which the client writes itself, so anyone could pick their keyless budget's address.
 */
export const trustProxy = () =>
  z
    .string()
    .default('false')
    .transform((value, context): false | number | string[] => {
      const text = value.trim();
      if (['', 'false', '0', 'no'].includes(text)) return false;
      if (/^\d+$/.test(text)) return Number(text);
      const entries = text.split(',').map((entry) => entry.trim()).filter((entry) => entry.length > 0);
      if (entries.length === 0 || entries.some((entry) => !isProxyAddressOrRange(entry))) {
        context.addIssue({
          code: z.ZodIssueCode.custom,
          message: 'give the number of proxies in front of the gateway (e.g. 1) or their addresses/CIDRs (e.g. 10.0.0.0/8,loopback); "true" would trust a client-written X-Forwarded-For',
        });
        return z.NEVER;
      }
      return entries;
    });

export const gatewayEnv = z.object({
  /** HTTP port of the gateway. */
  PORT: integer(3000),
  /** Proxies whose X-Forwarded-For names the client (keyless budgets are per client IP): false, a hop count, or CIDRs. */
  TRUST_PROXY: trustProxy(),
  /** Keyless budget per client IP: requests per minute. */
  KEYLESS_REQUESTS_PER_MINUTE: integer(20),
  /** Per-key requests per minute for development keys (sift-dev-…). */
  RATE_LIMIT_DEV_PER_MINUTE: integer(100),
  /** Per-key requests per minute for production keys (sift-prod-…). */
  RATE_LIMIT_PROD_PER_MINUTE: integer(1000),
  /** Per-key crawl and map requests per minute. */
  RATE_LIMIT_CRAWL_PER_MINUTE: integer(100),
  /** Per-key research requests per minute. */
  RATE_LIMIT_RESEARCH_PER_MINUTE: integer(20),
  /** Per-key /usage requests per 10 minutes. */
  RATE_LIMIT_USAGE_PER_10_MINUTES: integer(10),
  /** Serve /metrics on this port instead of PORT (0 = on PORT, as before); keep the port off the public network. */
  METRICS_PORT: integer(0),
  /** When set, /metrics answers only `Authorization: Bearer <METRICS_TOKEN>` (on either port). */
  METRICS_TOKEN: z.string().default(''),
  /** The operator credential: the admin API (/admin), the queue dashboard (/admin/queues) answer `Authorization: Bearer <ADMIN_TOKEN>`; unset = admin API off (403), no dashboard. */
  ADMIN_TOKEN: z.string().default(''),
  /** OTLP/HTTP collector (e.g. http://otel-collector:4318); when set, the gateway sends traces there. */
  OTEL_EXPORTER_OTLP_ENDPOINT: z.string().default(''),
  /** Level of the gateway's one log line per request (error, warn, log, debug, verbose), or off. */
  ACCESS_LOG: z.enum(['error', 'warn', 'log', 'debug', 'verbose', 'off']).default('log'),
});

export const fetchEnv = z.object({
  /** Comma-separated CIDRs that outbound fetches may reach although not public (tests and benchmarks only). */
  FETCH_ALLOW_CIDRS: z.string().default(''),
  /** Path of the Chromium binary used for rendering. */
  CHROMIUM_PATH: z.string().default('/usr/bin/chromium'),
  /** How long a stored document may serve as a cached extraction, in seconds (0 = never from cache). */
  DOCUMENT_CACHE_SECONDS: integer(3600),
  /**
   * Pool every fetched page into one index that all accounts search and serve from cache (a single-team install).
   * Default false: a page is visible only to the account that fetched it; the operator's imports are always shared.
   */
  SHARED_INDEX: flag(false),
});

/** Parsing fetched content (HTML, PDF, text) in worker threads: the limits no document may exceed. */
export const parsingEnv = z.object({
  /** Longest parsing one fetched document may take, in ms; past it its thread is terminated and the URL fails. */
  PARSE_DEADLINE_MS: z.coerce.number().int().min(100).default(15_000),
  /** Heap cap of each parsing thread, in MB; a document that needs more fails and its thread is replaced. */
  PARSE_THREAD_HEAP_MB: z.coerce.number().int().min(32).default(512),
  /** Documents waiting for a parsing thread at most; more fail at once instead of queueing without bound. */
  PARSE_QUEUE_LIMIT: integer(256),
  /** Pages of a PDF read at most; later pages are left out. */
  PDF_MAX_PAGES: z.coerce.number().int().min(1).default(200),
});

/** Chromium's memory: a page that allocates without bound fails and its browser is recycled. */
export const browserEnv = z.object({
  /** V8 heap cap of each rendered page, in MB; a page that needs more fails. */
  BROWSER_PAGE_HEAP_MB: z.coerce.number().int().min(16).default(512),
  /** Resident memory of one browser (all its processes), in MB, past which its pages fail and it is replaced. */
  BROWSER_MEMORY_MB: z.coerce.number().int().min(64).default(1536),
});

export const llmEnv = z.object({
  /** OpenAI-compatible base URL (e.g. https://api.openai.com/v1, http://localhost:11434/v1); empty = extractive answers. */
  LLM_BASE_URL: z.string().default(''),
  /** API key for the LLM endpoint, if it needs one. */
  LLM_API_KEY: z.string().default(''),
  /** Model name sent to the LLM endpoint. */
  LLM_MODEL: z.string().default('gpt-4o-mini'),
});

/**
 * The operator's embedding and reranking models (docs/models.md), beside the chat model: OpenAI's `/embeddings` and the
 * `/rerank` of text-embeddings-inference or Cohere/Jina. Unset, search ranks by words alone, as without them.
 */
export const modelsEnv = z.object({
  /** OpenAI-compatible embeddings base URL (e.g. http://tei:8080/v1, http://localhost:11434/v1); empty = no dense retrieval. */
  EMBEDDINGS_BASE_URL: z.string().default(''),
  /** Embedding model name sent with each call and recorded with each stored vector; a new name re-embeds the index. */
  EMBEDDINGS_MODEL: z.string().default(''),
  /** API key for the embeddings endpoint, if it needs one. */
  EMBEDDINGS_API_KEY: z.string().default(''),
  /** Longest a search waits for its query's vector, in ms, before ranking by words alone. */
  EMBEDDINGS_TIMEOUT_MS: z.coerce.number().int().min(1).default(1_000),
  /** Reranking base URL (e.g. http://tei-rerank:8080, https://api.jina.ai/v1); empty = no reranking at advanced depth. */
  RERANK_BASE_URL: z.string().default(''),
  /** Reranking model name (sent in the Cohere/Jina format; text-embeddings-inference serves one model). */
  RERANK_MODEL: z.string().default(''),
  /** API key for the reranking endpoint, if it needs one. */
  RERANK_API_KEY: z.string().default(''),
  /** Wire format of RERANK_BASE_URL: tei (POST /rerank {query, texts}), cohere (Cohere/Jina/vLLM), or auto (guessed from the URL). */
  RERANK_API: z.enum(['auto', 'tei', 'cohere']).default('auto'),
  /** Longest a search waits for the reranker, in ms, before keeping its own order. */
  RERANK_TIMEOUT_MS: z.coerce.number().int().min(1).default(2_000),
});

/**
 * The default latency budgets of POST /search, in ms from the request's arrival (docs/search-latency.md), the defaults
 * of SEARCH_BUDGET_BASIC_MS, SEARCH_HEDGE_BASIC_MS and SEARCH_BUDGET_ADVANCED_MS. The `timeout` field's description in
 * @sift/api-contracts names them too (checked by the gateway's OpenAPI test).
 */
export const SEARCH_LATENCY_BUDGETS = { basicMs: 950, hedgeBasicMs: 600, advancedMs: 2_200 } as const;

export const searchEnv = z.object({
  /** SearXNG base URL for open-web search (JSON API enabled); empty = local index only. */
  SEARXNG_URL: z.string().default(''),
  /**
   * Latency budgets of POST /search, in ms from the request's arrival (docs/search-latency.md): basic and advanced stop
   * waiting for pages then and show a loading page by its snippet; from the hedge time on, basic takes the first
   * pages to arrive. A caller's `timeout` overrides them.
   */
  SEARCH_BUDGET_BASIC_MS: z.coerce.number().int().min(100).default(SEARCH_LATENCY_BUDGETS.basicMs),
  SEARCH_HEDGE_BASIC_MS: z.coerce.number().int().min(0).default(SEARCH_LATENCY_BUDGETS.hedgeBasicMs),
  SEARCH_BUDGET_ADVANCED_MS: z.coerce.number().int().min(100).default(SEARCH_LATENCY_BUDGETS.advancedMs),
});

/**
 * How long a research task may take, counted from its POST; past it the task is failed with the reason. Read by
 * the gateway, which stores each task's deadline in its row (the worker and the sweep read it from there).
 */
export const researchDeadlineEnv = z.object({
  /** Longest a mini research task may take, in seconds, from its POST. */
  RESEARCH_DEADLINE_MINI_SECONDS: z.coerce.number().int().min(1).default(300),
  /** Longest a pro or auto research task may take, in seconds, from its POST. */
  RESEARCH_DEADLINE_PRO_SECONDS: z.coerce.number().int().min(1).default(900),
});

/** x402 pay-per-request for advanced search (docs/x402.md); off while X402_PAY_TO is empty. */
export const x402Env = z.object({
  /** EVM address that receives the payments; empty = x402 off (advanced search without a key stays 401). */
  X402_PAY_TO: z.union([z.literal(''), z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'must be an EVM address (0x and 40 hex digits)')]).default(''),
  /** CAIP-2 id of the chain paid on: eip155:8453 (Base), eip155:84532 (Base Sepolia); its USDC is the asset. */
  X402_NETWORK: z.string().regex(/^eip155:[0-9]+$/, 'must be a CAIP-2 EVM network such as eip155:8453').default('eip155:8453'),
  /** Facilitator that verifies and settles the payments (x402 /verify, /settle, /supported). */
  X402_FACILITATOR_URL: z.string().url().default('https://x402.org/facilitator'),
  /** Price of one advanced search in US dollars; the default is 2 credits at the pay-as-you-go price. */
  X402_PRICE_USD: z.coerce.number().positive().default(0.016),
});

export type CoreConfig = z.infer<typeof coreEnv>;
export type GatewayConfig = z.infer<typeof gatewayEnv>;
export type FetchConfig = z.infer<typeof fetchEnv>;
export type ParsingConfig = z.infer<typeof parsingEnv>;
export type BrowserConfig = z.infer<typeof browserEnv>;
export type LlmConfig = z.infer<typeof llmEnv>;
export type SearchConfig = z.infer<typeof searchEnv>;
export type ModelsConfig = z.infer<typeof modelsEnv>;
export type X402Config = z.infer<typeof x402Env>;
export type ResearchDeadlineConfig = z.infer<typeof researchDeadlineEnv>;

export class ConfigError extends Error {}

/** Parses the environment with the given schema; the error names every bad variable on one line. */
export function loadConfig<Schema extends z.ZodTypeAny>(schema: Schema, env: NodeJS.ProcessEnv = process.env): z.infer<Schema> {
  const result = schema.safeParse(env);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
    throw new ConfigError(`invalid configuration: ${problems}`);
  }
  return result.data;
}

export function loadDatabaseUrl(env: NodeJS.ProcessEnv = process.env): string {
  return loadConfig(coreEnv, env).DATABASE_URL;
}
