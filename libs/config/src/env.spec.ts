import { z } from 'zod';
import { usableCpuCount } from './cpu-quota';
import { browserEnv, ConfigError, DEFAULT_THREAD_CAP, fetchEnv, gatewayEnv, loadConfig, parsingEnv, researchDeadlineEnv, threadCount, x402Env } from './env';

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

  it('is the CPU count up to a cap when unset or empty, at least 1 when set', () => {
    const expected = Math.min(usableCpuCount(), DEFAULT_THREAD_CAP);
    expect(DEFAULT_THREAD_CAP).toBe(4);
    expect(loadConfig(schema, {}).THREADS).toBe(expected);
    expect(loadConfig(schema, { THREADS: '' }).THREADS).toBe(expected);
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

describe('x402 settings', () => {
  it('are off by default, on Base at 0.016 USD', () => {
    expect(loadConfig(x402Env, {})).toEqual({ X402_PAY_TO: '', X402_NETWORK: 'eip155:8453', X402_FACILITATOR_URL: 'https://x402.org/facilitator', X402_PRICE_USD: 0.016 });
  });

  it('refuse a receiving address, network or price that cannot be paid', () => {
    expect(() => loadConfig(x402Env, { X402_PAY_TO: 'alice' })).toThrow(/X402_PAY_TO/);
    expect(() => loadConfig(x402Env, { X402_NETWORK: 'base' })).toThrow(/X402_NETWORK/);
    expect(() => loadConfig(x402Env, { X402_PRICE_USD: '0' })).toThrow(/X402_PRICE_USD/);
    expect(loadConfig(x402Env, { X402_PAY_TO: `0x${'ab'.repeat(20)}` }).X402_PAY_TO).toBe(`0x${'ab'.repeat(20)}`);
  });
});

describe('TRUST_PROXY', () => {
  const trust = (value?: string) => loadConfig(gatewayEnv, value === undefined ? {} : { TRUST_PROXY: value }).TRUST_PROXY;

  it('trusts no proxy unless told, then a hop count or the proxies addresses and CIDRs', () => {
    expect(trust()).toBe(false);
    expect(trust('false')).toBe(false);
    expect(trust('0')).toBe(false);
    expect(trust('2')).toBe(2);
    expect(trust('10.0.0.0/8, fd00::/8,loopback,192.0.2.7')).toEqual(['10.0.0.0/8', 'fd00::/8', 'loopback', '192.0.2.7']);
  });

  it('refuses "true", which would let a client choose its own address, and anything that is not an address', () => {
    expect(() => trust('true')).toThrow(/TRUST_PROXY: give the number of proxies/);
    expect(() => trust('yes')).toThrow(ConfigError);
    expect(() => trust('10.0.0.0/33')).toThrow(ConfigError);
    expect(() => trust('proxy.internal')).toThrow(ConfigError);
  });
});

describe('research deadlines', () => {
  it('default to 5 minutes for mini and 15 for pro, and refuse a task no time at all', () => {
    expect(loadConfig(researchDeadlineEnv, {})).toEqual({ RESEARCH_DEADLINE_MINI_SECONDS: 300, RESEARCH_DEADLINE_PRO_SECONDS: 900 });
    expect(loadConfig(researchDeadlineEnv, { RESEARCH_DEADLINE_MINI_SECONDS: '60' }).RESEARCH_DEADLINE_MINI_SECONDS).toBe(60);
    expect(() => loadConfig(researchDeadlineEnv, { RESEARCH_DEADLINE_PRO_SECONDS: '0' })).toThrow(ConfigError);
  });
});
