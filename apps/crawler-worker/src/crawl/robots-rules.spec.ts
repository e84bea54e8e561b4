import { robotsRulesFromResponse } from './robots-rules';

const robotsUrl = 'https://example.com/robots.txt';
const page = (path: string): URL => new URL(path, 'https://example.com');

describe('robotsRulesFromResponse (RFC 9309)', () => {
  it('applies the SiftBot group over the wildcard group, longest match first', () => {
    const rules = robotsRulesFromResponse(
      robotsUrl,
      200,
      ['User-agent: *', 'Disallow: /', '', 'User-agent: SiftBot', 'Disallow: /private/', 'Allow: /private/open', 'Crawl-delay: 2', '', 'Sitemap: https://example.com/s.xml'].join('\n'),
    );
    expect(rules.isAllowed(page('/docs'))).toBe(true);
    expect(rules.isAllowed(page('/private/x'))).toBe(false);
    expect(rules.isAllowed(page('/private/open'))).toBe(true);
    expect(rules.crawlDelayMs).toBe(2000);
    expect(rules.sitemaps).toEqual(['https://example.com/s.xml']);
  });

  it('allows everything on 4xx and nothing on 5xx or when unreachable', () => {
    expect(robotsRulesFromResponse(robotsUrl, 404, '').isAllowed(page('/a'))).toBe(true);
    expect(robotsRulesFromResponse(robotsUrl, 503, '').isAllowed(page('/a'))).toBe(false);
    expect(robotsRulesFromResponse(robotsUrl, 0, '').isAllowed(page('/a'))).toBe(false);
  });
});
