import { environmentOfApiKey, generateApiKey, hashApiKey, looksLikeApiKey } from './api-key-format';

describe('API key format', () => {
  it('has the sift-<env>-<random> shape with a displayable prefix and last four', () => {
    const key = generateApiKey('prod');
    expect(key.apiKey).toMatch(/^sift-prod-[A-Za-z0-9_-]{43}$/);
    expect(key.apiKey.startsWith(key.prefix)).toBe(true);
    expect(key.prefix).toMatch(/^sift-prod-.{4}$/);
    expect(key.apiKey.endsWith(key.lastFour)).toBe(true);
    expect(environmentOfApiKey(key.apiKey)).toBe('prod');
    expect(environmentOfApiKey(generateApiKey('dev').apiKey)).toBe('dev');
  });

  it('stores only a SHA-256 hash that matches the key', () => {
    const key = generateApiKey('dev');
    expect(key.keyHash).toMatch(/^[0-9a-f]{64}$/);
    expect(key.keyHash).toBe(hashApiKey(key.apiKey));
    expect(key.keyHash).not.toContain(key.apiKey.slice(9));
  });

  it('carries at least 128 bits of randomness: 256 bits decoded, no repeats, every symbol used', () => {
    const secrets = Array.from({ length: 2000 }, () => generateApiKey('dev').apiKey.slice('sift-dev-'.length));
    for (const secret of secrets.slice(0, 20)) expect(Buffer.from(secret, 'base64url').length * 8).toBeGreaterThanOrEqual(128);
    expect(new Set(secrets).size).toBe(secrets.length);
    // 2000 keys × 42 full symbols: each of the 64 base64url symbols appears ~1300 times if the bytes are uniform.
    const counts = new Map<string, number>();
    for (const secret of secrets) for (const symbol of secret.slice(0, 42)) counts.set(symbol, (counts.get(symbol) ?? 0) + 1);
    expect(counts.size).toBe(64);
    const frequencies = [...counts.values()];
    expect(Math.min(...frequencies)).toBeGreaterThan(1000);
    expect(Math.max(...frequencies)).toBeLessThan(1650);
  });

  it('rejects strings that are not keys before any lookup', () => {
    expect(looksLikeApiKey('tvly-dev-abc')).toBe(false);
    expect(looksLikeApiKey('sift-test-' + 'a'.repeat(43))).toBe(false);
    expect(looksLikeApiKey('sift-dev-' + 'a'.repeat(42))).toBe(false);
    expect(looksLikeApiKey(generateApiKey('dev').apiKey)).toBe(true);
  });
});
