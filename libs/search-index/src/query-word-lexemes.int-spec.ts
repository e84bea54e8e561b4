import { createPrismaClient, queryRows } from '@sift/persistence';
import type { PrismaClient } from '@sift/persistence';
import { QueryWordLexemes, type ConfigLexeme, type WordLexemeLookup } from './query-word-lexemes';

const CONFIGS = ['english', 'simple', 'german'];

// Texts whose tokens Postgres's parser might be expected to join across words: it does not.
const TEXTS = [
  'what similarity laws must be obeyed when constructing aeroelastic models of heated high speed aircraft',
  'high-speed flow-field state-of-the-art co-operation foo_bar baz-qux-1',
  'e-mail foo@bar.com http://x.org/a/b.html /usr/bin/env a.b.c U.S.A. u.s',
  'version 1.2.3 -5.4e10 x^2+y^2 C++ and C# .NET',
  'héllo wörld naïve it\'s don\'t "quoted phrase" -not +plus <b>bold</b> &amp;',
  'tabs\tand\nnewlines\u00a0and  double  spaces',
];

function sorted(lexemes: ConfigLexeme[]): string[] {
  return lexemes.map((entry) => `${entry.config}:${entry.lexeme}`).sort();
}

describe('QueryWordLexemes (real Postgres)', () => {
  let prisma: PrismaClient;
  let statements = 0;
  let lookup: WordLexemeLookup;

  beforeAll(() => {
    prisma = createPrismaClient(process.env.DATABASE_URL as string, 2);
    lookup = (words, configs) => {
      statements += 1;
      return queryRows(prisma, {
        text: `SELECT w.word, c.config, l.lexeme FROM unnest($1::text[]) AS w(word) CROSS JOIN unnest($2::text[]) AS c(config)
               CROSS JOIN LATERAL unnest(to_tsvector(c.config::regconfig, w.word)) AS l`,
        values: [words, configs],
      });
    };
  });

  afterAll(() => prisma.$disconnect());

  it('gives the lexemes Postgres finds in the whole text, under every configuration', async () => {
    const words = new QueryWordLexemes(lookup);
    for (const text of TEXTS) {
      const whole = await queryRows<ConfigLexeme>(prisma, {
        text: `SELECT DISTINCT c.config, l.lexeme FROM unnest($1::text[]) AS c(config)
               CROSS JOIN LATERAL unnest(to_tsvector(c.config::regconfig, $2::text)) AS l`,
        values: [CONFIGS, text],
      });
      expect(sorted(await words.of(text, CONFIGS))).toEqual(sorted(whole));
    }
  });

  it('asks the database only for words it has not seen, and forgets the least recently used first', async () => {
    const words = new QueryWordLexemes(lookup, 4);
    statements = 0;
    await words.of('supersonic wing flutter', CONFIGS);
    expect(statements).toBe(1);
    await words.of('wing flutter  supersonic', CONFIGS);
    expect(statements).toBe(1);
    await words.of('boundary', CONFIGS);
    await words.of('layer', CONFIGS); // over capacity: the least recently used word ("wing") goes
    expect(statements).toBe(3);
    await words.of('supersonic flutter', CONFIGS);
    expect(statements).toBe(3);
    expect(sorted(await words.of('wing', CONFIGS))).toEqual(['english:wing', 'german:wing', 'simple:wing']);
    expect(statements).toBe(4);
    expect(sorted(await words.of('wing', ['english']))).toEqual(['english:wing']); // other configurations, other entries
    expect(statements).toBe(5);
    await words.of('supersonic', ['english']);
    expect(statements).toBe(6);
  });
});

describe('QueryWordLexemes when the corpus gains a language during a lookup', () => {
  it('does not keep the lexemes a lookup under the old configurations found', async () => {
    const asked: string[][] = [];
    let answerFirst: (rows: (ConfigLexeme & { word: string })[]) => void = () => undefined;
    const lookup: WordLexemeLookup = (words, configs) => {
      asked.push([...configs]);
      if (asked.length === 1) return new Promise((resolve) => (answerFirst = resolve));
      return Promise.resolve(words.flatMap((word) => configs.map((config) => ({ word, config, lexeme: word }))));
    };
    const words = new QueryWordLexemes(lookup);
    const old = words.of('tide', ['english']);
    await words.of('harbour', ['english', 'german']);
    answerFirst([{ word: 'tide', config: 'english', lexeme: 'tide' }]);
    expect(await old).toEqual([{ config: 'english', lexeme: 'tide' }]);
    // Asked again under both configurations, not answered from the old lookup.
    expect(await words.of('tide', ['english', 'german'])).toEqual([
      { config: 'english', lexeme: 'tide' },
      { config: 'german', lexeme: 'tide' },
    ]);
    expect(asked).toEqual([['english'], ['english', 'german'], ['english', 'german']]);
  });
});
