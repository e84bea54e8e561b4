import { isValidDomainEntry, normalizeDomainEntry } from './domain-match';

describe('isValidDomainEntry', () => {
  it.each(['example.com', 'https://www.Example.com/docs', 'nhs.uk', 'co.uk', 'docs.internal', 'bücher.de', '10.0.0.1', 'example.com.'])('accepts %s', (entry) => {
    expect(isValidDomainEntry(entry)).toBe(true);
  });

  it.each(['edu', 'gov', 'tavily', 'localhost', '[]', '*.edu', 'a b.com', '-bad.com', 'https://', ''])('refuses %s, which can match no host', (entry) => {
    expect(isValidDomainEntry(entry)).toBe(false);
  });

  it('judges the entry as it is compared, normalised', () => {
    expect(normalizeDomainEntry('https://www.Example.com:8080/docs?x')).toBe('example.com');
  });
});
