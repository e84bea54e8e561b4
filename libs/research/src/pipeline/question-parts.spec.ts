import { questionParts, referentOf, TAGGED_QUESTION_CHARACTERS } from './question-parts';
import { deterministicPlan } from './research-plan';

describe('questionParts: a compound question split into what to search for', () => {
  it.each([
    ['find which commit introduced a regression, and then undo it', ['find which commit introduced a regression', 'undo it']],
    ['How do I find which commit introduced a regression and then undo it?', ['How do I find which commit introduced a regression', 'undo it']],
    ['First find the commit that broke the build, then revert it', ['find the commit that broke the build', 'revert it']],
    ['clone a repository and then check out a tag', ['clone a repository', 'check out a tag']],
    ['How do I list tags and delete a remote branch?', ['How do I list tags', 'delete a remote branch']],
    ['What is git rebase and how does it differ from git merge?', ['What is git rebase', 'how does it differ from git merge']],
    ['What is the reflog, how long are reflog entries kept, and how can it help find lost commits?', ['What is the reflog', 'how long are reflog entries kept', 'how can it help find lost commits']],
    ['What does git status show. How do I read its short format?', ['What does git status show', 'How do I read its short format']],
  ])('splits "%s" at its conjunctions, sequencing words and sentence ends', (question, parts) => {
    expect(questionParts(question)).toEqual(parts);
  });

  it.each([
    'How do I undo the last git commit',
    // "and" joins two names or two nouns, not two clauses.
    'How do git fetch and git pull differ',
    'How does salt and pepper affect taste',
    'Compare Git, Mercurial and Subversion for large monorepos',
    // A verb that continues the clause before it (a past participle) starts no part.
    'Which changes were reviewed and merged last week',
  ])('keeps "%s" whole', (question) => {
    expect(questionParts(question)).toEqual([question]);
  });

  it('gives the same parts every time, also for a question asked again after another', () => {
    const question = 'find which commit introduced a regression, and then undo it';
    const first = questionParts(question);
    questionParts('How do I list tags and delete a remote branch?');
    expect(questionParts(question)).toEqual(first);
  });

  it('cuts an input too long to tag at its sentence ends and question-word clauses only', () => {
    const long = `${'Explain the history of version control in detail. '.repeat(Math.ceil(TAGGED_QUESTION_CHARACTERS / 40))}How do I list tags and delete a remote branch`;
    expect(long.length).toBeGreaterThan(TAGGED_QUESTION_CHARACTERS);
    const parts = questionParts(long);
    expect(parts[parts.length - 1]).toBe('How do I list tags and delete a remote branch');
  });

  it('names what a later part\'s pronoun points back to: the first thing the part before it names', () => {
    expect(referentOf('find which commit introduced a regression')).toBe('commit');
    expect(referentOf('How do I rename a branch')).toBe('branch');
    expect(referentOf('What is git rebase')).toBe('git rebase');
    expect(referentOf('do it now')).toBe('');
  });
});

describe('the plan without a model, for a compound question', () => {
  it('searches each part, a part that points back with what it points to', () => {
    const queries = (model: 'mini' | 'pro') => deterministicPlan('Find which commit introduced a regression, and then undo it', model).flatMap((section) => section.queries);
    expect(queries('mini')).toEqual(['Find which commit introduced a regression, and then undo it', 'Find which commit introduced a regression', 'undo it commit']);
    expect(queries('pro')).toEqual(expect.arrayContaining(['Find which commit introduced a regression', 'undo it commit']));
  });

  it('searches "first …, then …" part by part', () => {
    const queries = deterministicPlan('First find the commit that broke the build, then revert it', 'mini').flatMap((section) => section.queries);
    expect(queries).toEqual(expect.arrayContaining(['find the commit that broke the build', 'revert it commit']));
  });
});
