import { canonicalJson } from './canonical-json';

describe('canonicalJson', () => {
  it('writes objects with their keys sorted, at every depth, and keeps array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}');
    expect(canonicalJson({ query: 'q', max_results: 3 })).toBe(canonicalJson({ max_results: 3, query: 'q' }));
  });

  it('tells apart bodies that differ in a value, a field or array order', () => {
    const body = canonicalJson({ urls: ['a', 'b'] });
    expect(canonicalJson({ urls: ['b', 'a'] })).not.toBe(body);
    expect(canonicalJson({ urls: ['a', 'b'], extract_depth: 'basic' })).not.toBe(body);
    expect(canonicalJson(undefined)).toBe('null');
  });
});
