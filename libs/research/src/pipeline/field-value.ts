import nlp from 'compromise/three';
import { tokenize } from '@sift/ranking';

/**
 * What kind of value a string field holds, from its name: a field named `command` wants a command, `founder` a
 * person's name, `released_on` a date. `text` is any other field (a summary, an answer), which sentences can fill.
 */
export type FieldKind = 'command' | 'person' | 'place' | 'organization' | 'date' | 'url' | 'text';

// Each kind's words, matched against the words of the field's name; checked in order (a "release_date" is a date).
const KIND_WORDS: [FieldKind, RegExp][] = [
  ['date', /\b(?:date|dates|year|years|day|when|since|released?|born)\b/],
  ['url', /\b(?:url|urls|uri|link|links|website|homepage|href)\b/],
  ['command', /\b(?:command|commands|cmd|cli|subcommand|subcommands|invocation)\b/],
  ['person', /\b(?:founder|founders|creator|creators|author|authors|inventor|inventors|maintainer|maintainers|person|people|who|owner|owners|ceo|developer|developers)\b/],
  ['place', /\b(?:place|places|location|locations|city|cities|country|countries|headquarters|hq|where)\b/],
  ['organization', /\b(?:company|companies|organization|organisation|organizations|organisations|org|employer|publisher|vendor|vendors)\b/],
];

/** Role words that name how a person relates to a thing: a sentence naming a person in one of these roles supports the field. */
const ROLE_GROUPS: string[][] = [
  ['found', 'creat', 'origin', 'start', 'invent', 'author', 'wrote', 'writt', 'begun', 'began', 'initiat', 'establish', 'design'],
  ['maint', 'lead', 'steward', 'curren'],
  ['own', 'acquir', 'bought'],
  ['develop', 'contribut', 'wrote', 'writt', 'author'],
];
/** Letters two words share at their start to count as one word ("founder", "founded"): a stemmer's work, roughly. */
const STEM_LETTERS = 5;
const MONTHS = 'January|February|March|April|May|June|July|August|September|October|November|December';
const DATE = new RegExp(`\\b(?:\\d{4}-\\d{2}-\\d{2}|(?:${MONTHS}) \\d{1,2}, \\d{4}|\\d{1,2} (?:${MONTHS}) \\d{4}|(?:${MONTHS}) \\d{4}|(?:1[5-9]|20)\\d{2})\\b`);
const PERSON_NAME = /^\p{Lu}\p{Ll}+(?:[ -](?:\p{Lu}\.?|\p{Lu}\p{Ll}+|van|von|de|der|da))*[ -]\p{Lu}\p{Ll}+$/u;
const URL_IN_TEXT = /\bhttps?:\/\/[^\s<>()"'`]+[^\s<>()"'`.,;:!?]/;
const CODE_SPAN = /`([^`\n]{1,80})`/g;
/** A command written as one hyphenated word, as manual pages name them: `git-blame`, `git-blame(1)`. */
const HYPHENATED_COMMAND = /\b([a-z][a-z0-9]*(?:-[a-z0-9]+)+)(?:\(\d\))?/gi;

/** "releaseYear", "release_year" → "release year": the words a field's name stands for. */
export function wordsOfName(name: string): string {
  return name.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[_-]+/g, ' ');
}

/** The kind of value a field holds, from the words of its name and its JSON Schema `format`. */
export function fieldKind(name: string, format?: unknown): FieldKind {
  if (format === 'date' || format === 'date-time') return 'date';
  if (format === 'uri' || format === 'url') return 'url';
  const words = wordsOfName(name).toLowerCase();
  for (const [kind, pattern] of KIND_WORDS) if (pattern.test(words)) return kind;
  return 'text';
}

function stemOf(word: string): string {
  return word.toLowerCase().slice(0, STEM_LETTERS);
}

/**
 * Whether a sentence speaks of the field's subject in its own words (a stem of the field's name: "founded" for
 * `founder`) or a role word of the same group ("created" for `founder`): a person named in any sentence near the
 * question's words ("clones", "Junio") would be a guess.
 */
export function namesTheRole(sentence: string, fieldName: string): boolean {
  const fieldStems = tokenize(wordsOfName(fieldName))
    .filter((word) => word.length >= 4)
    .map(stemOf);
  const roles = new Set(fieldStems);
  for (const group of ROLE_GROUPS) if (group.some((role) => fieldStems.some((stem) => stem.startsWith(role) || role.startsWith(stem)))) group.forEach((role) => roles.add(role));
  return tokenize(sentence).some((word) => [...roles].some((role) => stemOf(word).startsWith(role) || (role.length >= STEM_LETTERS && word.startsWith(role))));
}

/** A person, place or organization the sentence names, by compromise's tags; undefined when it names none. */
export function namedEntity(sentence: string, kind: 'person' | 'place' | 'organization'): string | undefined {
  const document = nlp(sentence);
  const found = kind === 'person' ? document.people() : kind === 'place' ? document.places() : document.organizations();
  const names = (found.out('array') as string[]).map((name) => name.replace(/^[\s"'(]+|[\s"'),.;:!?]+$/g, ''));
  // The tagger takes any capitalized word for a name ("URI", "Git"): a person is named with a first and a last name.
  return kind === 'person' ? names.find((name) => PERSON_NAME.test(name)) : names.find((name) => name !== '');
}

/** A date or year the sentence states, as written ("2005", "April 2005", "2005-04-07"). */
export function dateIn(sentence: string): string | undefined {
  return DATE.exec(sentence)?.[0];
}

export function urlIn(sentence: string): string | undefined {
  return URL_IN_TEXT.exec(sentence)?.[0];
}

/**
 * A command the text names: a code span or a hyphenated manual-page name whose first word is one of `programs` (the
 * question's words, so "git-blame" for a question about Git, never "per-line"), cut before its options and
 * placeholders (`git rebase --continue` → "git rebase"). undefined when the text names none.
 */
export function commandIn(text: string, programs: ReadonlySet<string>): string | undefined {
  const candidates: { at: number; command: string }[] = [];
  for (const match of text.matchAll(CODE_SPAN)) {
    const words: string[] = [];
    for (const word of match[1].trim().split(/\s+/)) {
      if (/^[-<[{$|>]/.test(word) || !/^[\w.:/-]+$/.test(word)) break;
      words.push(word);
    }
    if (words.length > 0) candidates.push({ at: match.index ?? 0, command: words.join(' ') });
  }
  for (const match of text.matchAll(HYPHENATED_COMMAND)) candidates.push({ at: match.index ?? 0, command: match[1] });
  candidates.sort((first, second) => first.at - second.at);
  return candidates.find(({ command }) => {
    const program = command.split(/[\s-]/)[0].toLowerCase();
    return programs.has(program) && command.toLowerCase() !== program;
  })?.command;
}
