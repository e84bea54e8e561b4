import { tokenize } from '@sift/ranking';
import { OUTPUT_SCHEMA_LIMITS, type OutputSchemaValidator } from '../output-schema';
import { CitationOrder } from './citation-style';
import type { QuotedSentence, SentencePicker } from './extractive-report';

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

/** "releaseYear", "release_year" → "release year": the words a field's name stands for. */
function wordsOfName(name: string): string {
  return name.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[_-]+/g, ' ');
}

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
    const required = new Set(Array.isArray(schema.required) ? schema.required : []);
    const filled: Record<string, unknown> = {};
    for (const [name, property] of Object.entries(properties)) {
      let value = this.value(property, `${wordsOfName(name)} ${context}`.trim(), wordsOfName(name));
      // A required field the pages do not address by name gets what they say about the question itself.
      if (value === undefined && required.has(name)) value = property.type === 'boolean' ? false : this.value(property, '');
      if (value !== undefined) filled[name] = value;
    }
    return filled;
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
    if (items.type === 'string' || items.type === undefined) {
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

/**
 * The report as an object without a model: each field of output_schema filled from the pages' best sentences
 * for its name and description. Throws when the result does not validate (a required field the pages do not
 * support, a constraint a quote cannot meet): the task then fails with that reason.
 */
export function extractiveObject(validator: OutputSchemaValidator, picker: SentencePicker, question: string): { content: Record<string, unknown>; order: CitationOrder } {
  const filler = new ObjectFiller(picker, question);
  const content = filler.object(validator.schema, '');
  const problems = validator.problemsWith(content);
  if (problems !== null) throw new Error(`The sources found could not fill output_schema: ${problems}`);
  return { content, order: filler.order };
}
