import { availableParallelism } from 'node:os';
import { z } from 'zod';
import { browserEnv, ConfigError, fetchEnv, loadConfig, parsingEnv, threadCount } from './env';

describe('parsing and browser limits', () => {
  it('default to bounded values', () => {
    expect(loadConfig(parsingEnv, {})).toEqual({ PARSE_DEADLINE_MS: 15_000, PARSE_THREAD_HEAP_MB: 512, PARSE_QUEUE_LIMIT: 256, PDF_MAX_PAGES: 200 });
    expect(loadConfig(browserEnv, {})).toEqual({ BROWSER_PAGE_HEAP_MB: 512, BROWSER_MEMORY_MB: 1536 });
  });

  it('refuse limits that would switch a defence off', () => {
    expect(() => loadConfig(parsingEnv, { PARSE_DEADLINE_MS: '0' })).toThrow(ConfigError);
    expect(() => loadConfig(parsingEnv, { PDF_MAX_PAGES: '0' })).toThrow(ConfigError);
    expect(() => loadConfig(browserEnv, { BROWSER_PAGE_HEAP_MB: '1' })).toThrow(ConfigError);
  });
});

describe('threadCount', () => {
  const schema = z.object({ THREADS: threadCount() });

  it('is the CPU count when unset or empty, at least 1 when set', () => {
    expect(loadConfig(schema, {}).THREADS).toBe(availableParallelism());
    expect(loadConfig(schema, { THREADS: '' }).THREADS).toBe(availableParallelism());
    expect(loadConfig(schema, { THREADS: '3' }).THREADS).toBe(3);
    expect(() => loadConfig(schema, { THREADS: '0' })).toThrow(ConfigError);
  });
});

describe('SHARED_INDEX', () => {
  it('is off unless set, and accepts only a boolean spelling', () => {
    expect(loadConfig(fetchEnv, {}).SHARED_INDEX).toBe(false);
    expect(loadConfig(fetchEnv, { SHARED_INDEX: 'true' }).SHARED_INDEX).toBe(true);
    expect(loadConfig(fetchEnv, { SHARED_INDEX: 'no' }).SHARED_INDEX).toBe(false);
    expect(() => loadConfig(fetchEnv, { SHARED_INDEX: 'everyone' })).toThrow(ConfigError);
    expect(() => loadConfig(fetchEnv, { SHARED_INDEX: 'everyone' })).toThrow(/SHARED_INDEX/);
  });
});
