import { CrawlScope } from './crawl-scope';
import { InvalidPatternError } from './invalid-pattern.error';
import { compileScopePatterns } from './scope-patterns';

describe('compileScopePatterns', () => {
  it('rejects malformed patterns and constructs RE2 cannot run in linear time', () => {
    expect(() => compileScopePatterns({ selectPaths: ['/docs/('] })).toThrow(InvalidPatternError);
    expect(() => compileScopePatterns({ excludePaths: ['(a)\\1'] })).toThrow(InvalidPatternError);
    expect(() => compileScopePatterns({ selectDomains: ['(?=x)'] })).toThrow(/select_domains/);
  });

  it('matches a catastrophic-backtracking pattern in linear time', () => {
    const patterns = compileScopePatterns({ excludePaths: ['^(a+)+$'] });
    const hostile = `/${'a'.repeat(2000)}!`;
    const startedAt = performance.now();
    expect(patterns.excludePaths.matchesAny(hostile)).toBe(false);
    expect(performance.now() - startedAt).toBeLessThan(500);
  });
});

describe('CrawlScope', () => {
  const root = new URL('https://www.example.com/docs/');

  it('keeps external hosts out unless allowed, and counts subdomains as internal', () => {
    const closed = new CrawlScope(root, compileScopePatterns({}), false);
    expect(closed.allows(new URL('https://example.com/a'))).toBe(true);
    expect(closed.allows(new URL('https://api.example.com/a'))).toBe(true);
    expect(closed.allows(new URL('https://example.org/a'))).toBe(false);
    expect(new CrawlScope(root, compileScopePatterns({}), true).allows(new URL('https://example.org/a'))).toBe(true);
  });

  it('applies select and exclude patterns to the path and the host', () => {
    const scope = new CrawlScope(
      root,
      compileScopePatterns({ selectPaths: ['^/docs/'], excludePaths: ['/internal/'], excludeDomains: ['^blog\\.'] }),
      true,
    );
    expect(scope.allows(new URL('https://www.example.com/docs/guide'))).toBe(true);
    expect(scope.allows(new URL('https://www.example.com/pricing'))).toBe(false);
    expect(scope.allows(new URL('https://www.example.com/docs/internal/x'))).toBe(false);
    expect(scope.allows(new URL('https://BLOG.example.com/docs/x'))).toBe(false);
  });
});
