import { searchTermsOf } from './question-phrasing';

describe('searchTermsOf', () => {
  it('drops the request phrasing a question opens with', () => {
    expect(searchTermsOf('show me which trains leave for the coast tonight')).toBe('which trains leave for the coast tonight');
    expect(searchTermsOf('How do I undo a pushed commit?')).toBe('undo a pushed commit?');
    expect(searchTermsOf('Is there a way to rename a branch')).toBe('rename a branch');
    expect(searchTermsOf("what's the best way to shrink a repository")).toBe('shrink a repository');
    expect(searchTermsOf('Can you please tell me how to sign a tag')).toBe('sign a tag');
  });

  it('strips each sentence, and openings that follow one another', () => {
    expect(searchTermsOf('I committed on the wrong branch. How can I move it? I want to keep main clean')).toBe(
      'I committed on the wrong branch. move it? keep main clean',
    );
    expect(searchTermsOf('please help me to show me how to rebase')).toBe('rebase');
  });

  it('keeps words that only look like an opening, and a query that is nothing but one', () => {
    expect(searchTermsOf('show branch history')).toBe('show branch history');
    expect(searchTermsOf('git show me')).toBe('git show me');
    expect(searchTermsOf('how to')).toBe('how to');
    expect(searchTermsOf('what bridges cross the river in the old town')).toBe('what bridges cross the river in the old town');
  });
});
