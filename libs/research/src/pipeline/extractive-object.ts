import type { ResearchSource } from '@sift/queue-contracts';
import { tokenize } from '@sift/ranking';
import { OUTPUT_SCHEMA_LIMITS, type OutputSchemaValidator } from '../output-schema';
import { listed } from '../output-schema-limits';
import { CitationOrder } from './citation-style';
import type { QuotedSentence, SentencePicker } from './extractive-report';
import { commandIn, dateIn, fieldKind, type FieldKind, namedEntity, namesTheRole, urlIn, wordsOfName } from './field-value';

type JsonSchema = Record<string, unknown>;

// Sentences a string field gets, and a list of strings when the schema does not bound it.
const SENTENCES_PER_STRING = 2;
const DEFAULT_LIST_LENGTH = 3;
/**
 * Values one report may fill (each a search of the pages or two): every property of the largest schema several
 * times over, yet bounded however lists nest, where 50 lists of 50 lists of objects would ask for 2,500 and more.
 */
const MAXIMUM_FILLED_VALUES = 5 * OUTPUT_SCHEMA_LIMITS.properties;
const NUMBER = /-?\d{1,3}(?:,\d{3})+(?:\.\d+)?|-?\d+(?:\.\d+)?/;
const NEGATION = /\b(?:not|no|never|cannot|can't|doesn't|don't|isn't|aren't|without)\b/i;
/** Sentences searched for a typed value (a command, a name, a date): the best for the field and the question. */
const SENTENCES_PER_TYPED_VALUE = 8;
/** Sentences naming a field's role looked at for a person or a date (compromise tags each, about a millisecond). */
const SENTENCES_SEARCHED_FOR_A_ROLE = 200;

/** Fills schema fields from the pages' sentences; remembers which pages it quoted. */
class ObjectFiller {
  readonly order = new CitationOrder();
  private valuesLeft = MAXIMUM_FILLED_VALUES;

  constructor(
    private readonly picker: SentencePicker,
    private readonly question: string,
  ) {}

  /** Sentences for a field: by its own words first (the question's would outweigh them), else within the question. */
  private evidence(query: string, count: number, evidenceOnly: boolean): QuotedSentence[] {
    const own = query.trim() === '' ? [] : this.picker.pick(query, count, [], evidenceOnly);
    return own.length > 0 ? own : this.picker.pick(`${query} ${this.question}`, count, [], evidenceOnly);
  }

  private sentences(query: string, count: number, evidenceOnly = false): string[] {
    return this.evidence(query, count, evidenceOnly).map((sentence) => {
      this.order.numberOf(sentence.page.source);
      return sentence.text;
    });
  }

  /**
   * A value for one schema node, or undefined when the pages support none or the report has filled all the values
   * it may. `subject`: the words of the field's name, which a sentence must use for a number to be taken from it.
   */
  value(schema: JsonSchema, query: string, subject = ''): unknown {
    if (this.valuesLeft === 0) return undefined;
    this.valuesLeft -= 1;
    const described = `${query} ${typeof schema.description === 'string' ? schema.description : ''}`;
    if (Array.isArray(schema.enum) && schema.enum.length > 0) return this.choice(schema.enum, described);
    const type = Array.isArray(schema.type) ? schema.type.find((candidate) => candidate !== 'null') : schema.type;
    switch (type) {
      case 'string': {
        const kind = fieldKind(subject, schema.format);
        if (kind !== 'text') return this.typed(kind, described, subject, 1)[0];
        const found = this.sentences(described, SENTENCES_PER_STRING);
        return found.length > 0 ? found.join(' ') : undefined;
      }
      case 'number':
      case 'integer':
        return this.number(described, subject, type === 'integer');
      case 'boolean': {
        const [evidence] = this.sentences(described, 1, true);
        return evidence === undefined ? undefined : !NEGATION.test(evidence);
      }
      case 'array':
        return this.list((schema.items as JsonSchema | undefined) ?? { type: 'string' }, described, schema, subject);
      case 'object':
        return this.object(schema, query);
      default:
        return this.sentences(described, SENTENCES_PER_STRING).join(' ') || undefined;
    }
  }

  object(schema: JsonSchema, context: string): Record<string, unknown> {
    const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
    const filled: Record<string, unknown> = {};
    for (const [name, property] of Object.entries(properties)) {
      const value = this.value(property, `${wordsOfName(name)} ${context}`.trim(), wordsOfName(name));
      if (value !== undefined) filled[name] = value;
    }
    return filled;
  }

  /** The top-level fields of the report, each with the sources its value quotes, in the schema's order. */
  fields(schema: JsonSchema): Map<string, { value: unknown; sources: ResearchSource[] }> {
    const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
    const fields = new Map<string, { value: unknown; sources: ResearchSource[] }>();
    for (const [name, property] of Object.entries(properties)) {
      const before = this.order.sources.length;
      const value = this.value(property, wordsOfName(name), wordsOfName(name));
      if (value !== undefined) fields.set(name, { value, sources: this.order.sources.slice(before) });
    }
    return fields;
  }

  /**
   * Up to `count` distinct values of a kind (a command, a person's name, a date, a URL) from the sentences that best
   * match the field and the question, each taken only where a sentence supports it for this field: a command the
   * sentence (or the page it is from, a manual page named after its command) names, a person named in the field's
   * role ("created by …" for a founder), a date in a sentence naming the field. None: the field stays unfilled.
   */
  private typed(kind: Exclude<FieldKind, 'text'>, query: string, subject: string, count: number): string[] {
    const programs = new Set(tokenize(`${this.question} ${query}`));
    const values: string[] = [];
    for (const sentence of this.candidates(kind, query, subject)) {
      if (values.length >= count) break;
      const value = this.typedIn(kind, sentence, subject, programs);
      if (value === undefined || values.some((known) => known.toLowerCase() === value.toLowerCase())) continue;
      this.order.numberOf(sentence.page.source);
      values.push(value);
    }
    return values;
  }

  /**
   * The sentences a typed value is looked for in, best first. A person or a date is looked for in the sentences that
   * name the field's role ("created" for a founder), those matching the question first: in a question about
   * something else as well ("which command …, and who founded it") such a sentence ranks too low to be picked.
   */
  private candidates(kind: Exclude<FieldKind, 'text'>, query: string, subject: string): QuotedSentence[] {
    const ranked = this.picker.ranked(`${query} ${this.question}`).map((entry) => this.picker.sentences[entry.position]);
    if (kind !== 'person' && kind !== 'date') return ranked.slice(0, SENTENCES_PER_TYPED_VALUE);
    const inRole = (sentence: QuotedSentence) => namesTheRole(sentence.text, subject);
    const rest = this.picker.sentences.filter((sentence) => !ranked.includes(sentence));
    return [...ranked.filter(inRole), ...rest.filter(inRole)].slice(0, SENTENCES_SEARCHED_FOR_A_ROLE);
  }

  private typedIn(kind: Exclude<FieldKind, 'text'>, sentence: QuotedSentence, subject: string, programs: ReadonlySet<string>): string | undefined {
    switch (kind) {
      case 'command':
        return commandIn(sentence.text, programs) ?? commandIn(sentence.page.source.title, programs);
      case 'person':
        return namedEntity(sentence.text, 'person');
      case 'place':
      case 'organization':
        return namedEntity(sentence.text, kind);
      case 'date':
        return dateIn(sentence.text);
      case 'url':
        return urlIn(sentence.text) ?? sentence.page.source.url;
    }
  }

  /**
   * A number from a sentence that names the field ("price" for a price): any number near the question's other
   * words ("git-merge(1)" for the price of a merge) would be a guess.
   */
  private number(query: string, subject: string, integer: boolean): number | undefined {
    const named = new Set(tokenize(subject));
    if (named.size === 0) return undefined;
    for (const sentence of this.picker.pick(query, 5, [], true)) {
      if (!tokenize(sentence.text).some((token) => named.has(token))) continue;
      const match = NUMBER.exec(sentence.text);
      if (!match) continue;
      const value = Number(match[0].replace(/,/g, ''));
      if (!Number.isFinite(value) || (integer && !Number.isInteger(value))) continue;
      this.order.numberOf(sentence.page.source);
      return value;
    }
    return undefined;
  }

  /** At most OUTPUT_SCHEMA_LIMITS.listItems items, whatever the schema asks (a task stored before the limit may ask more). */
  private list(items: JsonSchema, query: string, schema: JsonSchema, subject: string): unknown[] | undefined {
    const preferred = typeof schema.maxItems === 'number' ? Math.min(schema.maxItems, DEFAULT_LIST_LENGTH * 2) : DEFAULT_LIST_LENGTH;
    const least = typeof schema.minItems === 'number' ? schema.minItems : 0;
    const wanted = Math.min(Math.max(least, preferred), OUTPUT_SCHEMA_LIMITS.listItems);
    const values: unknown[] = [];
    const kind = fieldKind(subject, items.format);
    if ((items.type === 'string' || items.type === undefined) && kind !== 'text') {
      values.push(...this.typed(kind, query, subject, wanted));
    } else if (items.type === 'string' || items.type === undefined) {
      values.push(...this.sentences(query, wanted));
    } else {
      for (let index = 0; index < wanted; index += 1) {
        const value = this.value(items, query, subject);
        if (value === undefined) break;
        values.push(value);
      }
    }
    return values.length > 0 ? values : undefined;
  }

  private choice(options: unknown[], query: string): unknown {
    const [evidence] = this.picker.pick(`${query} ${options.join(' ')}`, 1, [], true);
    const text = evidence?.text.toLowerCase() ?? '';
    return options.find((option) => text.includes(String(option).toLowerCase())) ?? options[0];
  }
}

/** A report object without a model, the sources its values quote, and the schema's top-level fields it could not fill. */
export interface ExtractiveObject {
  content: Record<string, unknown>;
  order: CitationOrder;
  unfilled: string[];
}

/**
 * The report as an object without a model: each field of output_schema filled only with what a source supports for
 * it (a command for `command`, a person's name for `founder`, a number or a date from a sentence naming the field,
 * sentences for any other text). A field the sources do not support, or whose value breaks the schema, is left out
 * and listed in `unfilled` (a required one too: the object then lacks it, rather than holding an invented value).
 * Throws when no field could be filled, or when the object breaks a constraint on the whole of it.
 */
export function extractiveObject(validator: OutputSchemaValidator, picker: SentencePicker, question: string): ExtractiveObject {
  const filler = new ObjectFiller(picker, question);
  const fields = filler.fields(validator.schema);
  const content = Object.fromEntries([...fields].map(([name, field]) => [name, field.value]));
  // Why the first values left out broke the schema: the reason a task that keeps no field fails with.
  let firstProblems: string | null = null;
  for (;;) {
    const { fields: unfit, other } = validator.unfitFields(content);
    const dropped = unfit.filter((name) => Object.prototype.hasOwnProperty.call(content, name));
    if (dropped.length === 0) {
      if (other !== null) throw new Error(`The sources found could not fill output_schema: ${other}`);
      break;
    }
    firstProblems ??= validator.problemsWith(content);
    for (const name of dropped) delete content[name];
  }
  const unfilled = Object.keys((validator.schema.properties ?? {}) as object).filter((name) => !Object.prototype.hasOwnProperty.call(content, name));
  if (Object.keys(content).length === 0) {
    throw new Error(firstProblems !== null ? `The sources found could not fill output_schema: ${firstProblems}` : `The sources found support none of output_schema's fields: ${listed(unfilled)}.`);
  }
  const order = new CitationOrder();
  for (const name of Object.keys(content)) for (const source of fields.get(name)?.sources ?? []) order.numberOf(source);
  return { content, order, unfilled };
}
