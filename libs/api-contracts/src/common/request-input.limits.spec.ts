import { describeUnsafeInput, findUnsafeInput, isDatabaseSafeText } from './request-input.limits';

describe('database-safe text', () => {
  it.each([
    ['plain text', 'hello', true],
    ['a surrogate pair (emoji)', 'ok \ud83d\ude00', true],
    ['latin and CJK', 'café 東京', true],
    ['NUL', 'a\u0000b', false],
    ['a lone high surrogate', 'a\ud800', false],
    ['a lone high surrogate before text', '\ud800a', false],
    ['a lone low surrogate', '\udc00', false],
    ['two high surrogates', '\ud800\ud800\udc00', false],
  ])('%s', (_name, text, safe) => {
    expect(isDatabaseSafeText(text)).toBe(safe);
  });
});

describe('findUnsafeInput', () => {
  it('accepts ordinary bodies and non-objects', () => {
    expect(findUnsafeInput({ query: 'x', urls: ['https://a.example/'], nested: { list: [{ a: 1, b: null }] } })).toBeUndefined();
    expect(findUnsafeInput(undefined)).toBeUndefined();
    expect(findUnsafeInput(42)).toBeUndefined();
  });

  it('names the field holding NUL or a lone surrogate, in values and in keys', () => {
    expect(findUnsafeInput({ urls_scores: [{ comment: 'x\u0000' }] })).toEqual({ problem: 'unsafe-text', field: 'urls_scores.0.comment' });
    expect(findUnsafeInput({ extra: { 'k\ud800': 1 } })).toEqual({ problem: 'unsafe-text', field: 'extra' });
    expect(findUnsafeInput('\u0000')).toEqual({ problem: 'unsafe-text', field: 'body' });
  });

  it('refuses nesting past the limit without recursing (1e5 levels)', () => {
    let deep: unknown = 1;
    for (let level = 0; level < 100_000; level += 1) deep = [deep];
    expect(findUnsafeInput({ a: deep })).toEqual({ problem: 'too-deep', maxDepth: 64 });
    let allowed: unknown = 1;
    for (let level = 0; level < 63; level += 1) allowed = { a: allowed };
    expect(findUnsafeInput({ a: allowed })).toBeUndefined();
    expect(findUnsafeInput({ a: { a: allowed } })).toEqual({ problem: 'too-deep', maxDepth: 64 });
  });

  it('refuses more values than the limit, counting array items and object fields at every level', () => {
    expect(findUnsafeInput({ list: Array.from({ length: 49_998 }, () => 0) })).toBeUndefined();
    expect(findUnsafeInput({ list: Array.from({ length: 49_999 }, () => 0) })).toEqual({ problem: 'too-many-values', maxValues: 50_000 });
    const fields = Object.fromEntries(Array.from({ length: 30_000 }, (_, index) => [`f${index}`, { type: 'string' }]));
    expect(findUnsafeInput({ schema: { properties: fields } })).toEqual({ problem: 'too-many-values', maxValues: 50_000 });
    // The body, its field a, a's three items: five values.
    expect(findUnsafeInput({ a: [1, 2, 3] }, 64, 5)).toBeUndefined();
    expect(findUnsafeInput({ a: [1, 2, 3], b: 1 }, 64, 5)).toEqual({ problem: 'too-many-values', maxValues: 5 });
  });

  it('describes each problem without echoing the text', () => {
    expect(describeUnsafeInput({ problem: 'too-deep', maxDepth: 64 })).toBe('JSON nested deeper than 64 levels');
    expect(describeUnsafeInput({ problem: 'too-many-values', maxValues: 50_000 })).toBe('JSON holding more than 50000 values (array items and object fields)');
    expect(describeUnsafeInput({ problem: 'unsafe-text', field: 'name' })).toBe('name contains a NUL character or an unpaired UTF-16 surrogate');
  });
});
