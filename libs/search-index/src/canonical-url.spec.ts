import { canonicalUrlKey, normalizeUrl } from '@sift/pages';
import { hostMatchesDomain, normalizeDomainEntry } from './domain-match';
import { quotedPhrases } from './query-phrases';
import { guessLanguage } from '@sift/pages';
import { languageCodeOf } from '@sift/pages';

describe('URL normalisation', () => {
  it('drops fragments, default ports and tracking parameters and sorts the query', () => {
    expect(normalizeUrl('HTTPS://Example.COM:443/a/b?z=1&utm_medium=x&a=2#part')).toBe('https://example.com/a/b?a=2&z=1');
    expect(() => normalizeUrl('ftp://example.com/')).toThrow();
  });

  it('gives http/https, www and trailing-slash variants one key', () => {
    expect(canonicalUrlKey('http://www.example.com/page/')).toBe(canonicalUrlKey('https://example.com/page'));
    expect(canonicalUrlKey('https://example.com/page')).not.toBe(canonicalUrlKey('https://example.com/other'));
  });
});

describe('query and domain helpers', () => {
  it('matches a domain and its subdomains only', () => {
    const domain = normalizeDomainEntry('https://www.Example.com/news');
    expect(domain).toBe('example.com');
    expect(hostMatchesDomain('blog.example.com', domain)).toBe(true);
    expect(hostMatchesDomain('notexample.com', domain)).toBe(false);
  });

  it('extracts quoted phrases', () => {
    expect(quotedPhrases('"Heat  Transfer" in “boundary layers” and more')).toEqual(['heat transfer', 'boundary layers']);
  });

  it('normalises and guesses languages', () => {
    expect(languageCodeOf('English')).toBe('en');
    expect(languageCodeOf('pt-BR')).toBe('pt');
    expect(guessLanguage('Le chat est sur la table et les enfants jouent dans le jardin de la maison.')).toBe('fr');
    expect(guessLanguage('1234 5678 9012 3456 7890')).toBeUndefined();
  });
});
