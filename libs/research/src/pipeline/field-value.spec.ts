import { commandIn, dateIn, fieldKind, namedEntity, namesTheRole } from './field-value';

describe('field values', () => {
  it('reads the kind of a field from its name and format', () => {
    expect(fieldKind('command')).toBe('command');
    expect(fieldKind('gitCommand')).toBe('command');
    expect(fieldKind('founder')).toBe('person');
    expect(fieldKind('project_founders')).toBe('person');
    expect(fieldKind('release_date')).toBe('date');
    expect(fieldKind('first_released', 'date')).toBe('date');
    expect(fieldKind('homepage')).toBe('url');
    expect(fieldKind('headquarters')).toBe('place');
    expect(fieldKind('publisher')).toBe('organization');
    expect(fieldKind('summary')).toBe('text');
  });

  it('takes a command only where the text names one of the question\'s programs', () => {
    const git = new Set(['which', 'git', 'command', 'shows']);
    expect(commandIn('git-blame - Show what revision and author last modified each line of a file', git)).toBe('git-blame');
    expect(commandIn('git-blame(1)', git)).toBe('git-blame');
    expect(commandIn('You will have to resolve the failure and run `git rebase --continue`.', git)).toBe('git rebase');
    expect(commandIn('Attributes set per-line diff drivers for a path.', git)).toBeUndefined();
    expect(commandIn('Run `<editor>` or `git` alone.', git)).toBeUndefined();
    expect(commandIn('Use `hg-annotate` instead.', git)).toBeUndefined();
  });

  it('takes a person only from a sentence naming the field\'s role', () => {
    const created = 'Git was originally created by Linus Torvalds in 2005 for the development of the Linux kernel.';
    expect(namesTheRole(created, 'founder')).toBe(true);
    expect(namedEntity(created, 'person')).toBe('Linus Torvalds');
    expect(namesTheRole('Junio Hamano merged the clone changes.', 'founder')).toBe(false);
    expect(namedEntity('A clone copies the repository into a new directory.', 'person')).toBeUndefined();
    expect(namedEntity('The URI was created by the remote helper.', 'person')).toBeUndefined();
    expect(namedEntity('The first version was written by Junio C Hamano.', 'person')).toBe('Junio C Hamano');
  });

  it('takes dates as written', () => {
    expect(dateIn('Mercurial was first released by Matt Mackall in April 2005.')).toBe('April 2005');
    expect(dateIn('Released on 2005-04-07.')).toBe('2005-04-07');
    expect(dateIn('It has 45 engineers.')).toBeUndefined();
  });
});
