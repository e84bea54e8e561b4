/** One lexeme of a query under one text search configuration. */
export interface ConfigLexeme {
  config: string;
  lexeme: string;
}

/** Asks Postgres for the lexemes of each word under each configuration (`to_tsvector` per pair). */
export type WordLexemeLookup = (words: string[], configs: readonly string[]) => Promise<(ConfigLexeme & { word: string })[]>;

/** Words longer than this are looked up every time instead of being remembered (they are rarely repeated). */
const LONGEST_REMEMBERED_WORD = 64;

/**
 * The lexemes of a query under the corpus's text search configurations, remembered per word. Postgres's parser
 * never makes a token across whitespace, so the lexemes of a text are the union of those of its
 * whitespace-separated words (checked in `query-word-lexemes.int-spec.ts`, URLs, hyphenated words and versions
 * included). A search therefore asks the database only for the words this process has not seen yet; once the
 * words of a workload's queries repeat, as words of natural language do, the step costs no round trip. Bounded:
 * the least recently used words are forgotten first.
 */
export class QueryWordLexemes {
  private remembered = new Map<string, ConfigLexeme[]>();
  private rememberedConfigs = '';

  constructor(
    private readonly lookup: WordLexemeLookup,
    private readonly capacity = 50_000,
  ) {}

  /** The lexemes of a text: the union of its words' (see byWord). */
  async of(text: string, configs: readonly string[]): Promise<ConfigLexeme[]> {
    return unionOf([...(await this.byWord(wordsOf(text), configs)).values()]);
  }

  /** Each distinct word's lexemes under each configuration (none for a word that is a stop word everywhere). */
  async byWord(words: readonly string[], configs: readonly string[]): Promise<Map<string, ConfigLexeme[]>> {
    // The configurations change only when the corpus gains a language: what was remembered for others goes.
    const configKey = configs.join(',');
    if (configKey !== this.rememberedConfigs) {
      this.remembered = new Map();
      this.rememberedConfigs = configKey;
    }
    const known = new Map<string, ConfigLexeme[]>();
    const missing: string[] = [];
    for (const word of words) {
      if (known.has(word)) continue;
      const lexemes = this.remembered.get(word);
      if (lexemes === undefined) {
        if (!missing.includes(word)) missing.push(word);
        continue;
      }
      // Map order is insertion order: moving a word to the end keeps the least recently used first.
      this.remembered.delete(word);
      this.remembered.set(word, lexemes);
      known.set(word, lexemes);
    }
    if (missing.length > 0) {
      for (const word of missing) known.set(word, []);
      for (const row of await this.lookup(missing, configs)) known.get(row.word)?.push({ config: row.config, lexeme: row.lexeme });
      // The configurations changed while this lookup ran: its lexemes lack the new ones and are not kept.
      if (this.rememberedConfigs !== configKey) return known;
      for (const word of missing) if (word.length <= LONGEST_REMEMBERED_WORD) this.remember(word, known.get(word) ?? []);
    }
    return known;
  }

  private remember(word: string, lexemes: ConfigLexeme[]): void {
    this.remembered.set(word, lexemes);
    if (this.remembered.size > this.capacity) this.remembered.delete(this.remembered.keys().next().value as string);
  }
}

/** A text's distinct whitespace-separated words. */
export function wordsOf(text: string): string[] {
  return [...new Set(text.split(/\s+/).filter(Boolean))];
}

/** The distinct (configuration, lexeme) pairs of several words' lexemes, in the words' order. */
export function unionOf(perWord: readonly ConfigLexeme[][]): ConfigLexeme[] {
  if (perWord.length === 1) return perWord[0];
  const seen = new Map<string, Set<string>>();
  const union: ConfigLexeme[] = [];
  for (const entries of perWord) {
    for (const entry of entries) {
      let lexemes = seen.get(entry.config);
      if (!lexemes) seen.set(entry.config, (lexemes = new Set()));
      if (lexemes.has(entry.lexeme)) continue;
      lexemes.add(entry.lexeme);
      union.push(entry);
    }
  }
  return union;
}
