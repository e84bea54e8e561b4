import { MAX_TITLE_NAMES, queryNamesOf, titleNamesOf } from './title-names';

describe('titleNamesOf', () => {
  it("names a page by its title's segments of two to four words, without a trailing marker in parentheses", () => {
    expect(titleNamesOf('git-clean(1)')).toEqual(['git clean']);
    expect(titleNamesOf('git-sh-i18n--envsubst(1)')).toEqual(['git sh i18n envsubst']);
    expect(titleNamesOf('List comprehensions | Python Tutorial')).toEqual(['list comprehensions', 'python tutorial']);
    expect(titleNamesOf('Unit Testing - Acme Docs: Getting Started')).toEqual(['unit testing', 'acme docs', 'getting started']);
    expect(titleNamesOf('Größe ändern — Handbuch')).toEqual(['größe ändern']);
  });

  it('gives no name for a title of one word or of more than four', () => {
    expect(titleNamesOf('git(1)')).toEqual([]);
    expect(titleNamesOf('News')).toEqual([]);
    expect(titleNamesOf('How to use the subtree merge strategy')).toEqual([]);
    expect(titleNamesOf('')).toEqual([]);
  });

  it('keeps hyphens inside a word apart from separators, and caps the names of a hostile title', () => {
    expect(titleNamesOf('Read-only mode')).toEqual(['read only mode']);
    expect(titleNamesOf(Array.from({ length: 50 }, (_, position) => `part ${position}`).join(' | '))).toHaveLength(MAX_TITLE_NAMES);
  });
});

describe('queryNamesOf', () => {
  it("lists the query's runs of two to four words, lowercased, punctuation as spaces", () => {
    expect(queryNamesOf('How do git clean and git reset --hard differ?')).toEqual(
      expect.arrayContaining(['git clean', 'git reset', 'git reset hard', 'clean and git reset']),
    );
    expect(queryNamesOf('How do git clean and git reset --hard differ?')).not.toContain('how do git clean and');
    expect(queryNamesOf('one')).toEqual([]);
    expect(queryNamesOf('a b c')).toEqual(['a b', 'a b c', 'b c']);
  });

  it('names a title as that title names itself', () => {
    for (const title of ['git-clean(1)', 'Unit Testing', 'Größe ändern']) {
      expect(queryNamesOf(`what about ${title.replace(/\(\d\)$/, '')} today`)).toEqual(expect.arrayContaining(titleNamesOf(title)));
    }
  });
});
