import nlp from 'compromise/two';

/**
 * Longest question tagged word by word. compromise's part-of-speech tagger runs on the event loop in time linear in
 * the text, about 50 ms for 600 characters on the 2-core development machine; a longer input (a caller may send any
 * length) is cut at sentence ends and clause-starting question words only.
 */
export const TAGGED_QUESTION_CHARACTERS = 600;

/** Conjunctions that join two clauses of a question ("…, and then undo it", "… but how …"). */
const COORDINATORS = new Set(['and', 'but', 'while', 'whereas']);
/** Words that order a task's steps; they start a part ("then revert it") without being part of what to search. */
const SEQUENCE_WORDS = new Set(['first', 'firstly', 'then', 'next', 'afterwards', 'afterward', 'later', 'finally', 'also', 'second', 'secondly', 'lastly']);
/** Words that may stand between a coordinator and the verb of its clause ("and then undo it", "and also list …"). */
const BRIDGING_WORDS = new Set(['then', 'next', 'afterwards', 'afterward', 'later', 'finally', 'also', 'just', 'simply']);
/** Verb forms that continue a clause rather than start one ("changes made and kept", "by cloning and fetching"). */
const CONTINUING_VERB_TAGS = ['PastTense', 'Gerund', 'Participle'];

interface TaggedTerm {
  text: string;
  pre: string;
  post: string;
  normal: string;
  tags: string[];
}

const hasTag = (term: TaggedTerm | undefined, tag: string) => term !== undefined && term.tags.includes(tag);

/** A clause may start here: a question word, or a verb in a form that begins a clause (imperative, present, modal). */
function startsClause(term: TaggedTerm | undefined): boolean {
  if (!term) return false;
  if (hasTag(term, 'QuestionWord')) return true;
  return hasTag(term, 'Verb') && !CONTINUING_VERB_TAGS.some((tag) => hasTag(term, tag));
}

/** The first term after `from` that is not a bridging word. */
function clauseHead(terms: TaggedTerm[], from: number): TaggedTerm | undefined {
  let position = from;
  while (position < terms.length && BRIDGING_WORDS.has(terms[position].normal)) position += 1;
  return terms[position];
}

/**
 * Where a sentence's terms divide into parts, each time the words before hold a verb of their own: before a
 * coordinator whose clause starts with a verb or a question word ("find which commit introduced a regression, and
 * then undo it"; "what is the reflog and how long are its entries kept"; not "how do git fetch and git pull differ",
 * nor "salt and pepper"), before a sequencing word after a comma that is followed by a verb ("…, then revert it"), and
 * before a question word after a comma ("what is the reflog, how long is it kept").
 */
function partStarts(terms: TaggedTerm[]): number[] {
  const starts = [0];
  for (let position = 1; position < terms.length; position += 1) {
    const term = terms[position];
    const current = terms.slice(starts[starts.length - 1], position);
    const leftHasVerb = current.some((left) => hasTag(left, 'Verb'));
    const afterComma = /[,;:]/.test(terms[position - 1].post);
    if (!leftHasVerb) continue;
    if (COORDINATORS.has(term.normal) && startsClause(clauseHead(terms, position + 1))) starts.push(position);
    else if (afterComma && SEQUENCE_WORDS.has(term.normal) && startsClause(clauseHead(terms, position + 1))) starts.push(position);
    else if (afterComma && hasTag(term, 'QuestionWord')) starts.push(position);
  }
  return starts;
}

/** A part as written, without the coordinator and sequencing words that start it nor the punctuation that ends it. */
function partText(terms: TaggedTerm[]): string {
  let first = 0;
  while (first < terms.length - 1 && (COORDINATORS.has(terms[first].normal) || SEQUENCE_WORDS.has(terms[first].normal))) first += 1;
  return terms
    .slice(first)
    .map((term, position, kept) => `${position === 0 ? '' : term.pre}${term.text}${position === kept.length - 1 ? '' : term.post}`)
    .join('')
    .replace(/[\s?!.,;:]+$/, '')
    .trim();
}

function taggedSentences(question: string): TaggedTerm[][] {
  return (nlp(question).json({ terms: { normal: true } }) as { terms: TaggedTerm[] }[]).map((sentence) => sentence.terms);
}

/**
 * The parts of a compound question, each a thing to search for on its own: its sentences, and within each the
 * clauses its coordinating conjunctions and sequencing words join ("find which commit introduced a regression, and
 * then undo it" → "find which commit introduced a regression", "undo it"; "first …, then …"). Split by
 * compromise's part-of-speech tags, so "A and B" joining two names or two nouns stays whole. A question of one part
 * gives one. Deterministic: the same question always gives the same parts.
 */
export function questionParts(question: string): string[] {
  // A plan asks for one question's parts several times (its model, its comparison, its clauses): tagged once.
  if (lastSplit?.question === question) return [...lastSplit.parts];
  const parts =
    question.length > TAGGED_QUESTION_CHARACTERS
      ? untaggedParts(question)
      : taggedSentences(question)
          .flatMap((terms) => {
            const starts = partStarts(terms);
            return starts.map((start, position) => partText(terms.slice(start, starts[position + 1] ?? terms.length)));
          })
          .filter((part) => part !== '');
  lastSplit = { question, parts };
  return [...parts];
}

let lastSplit: { question: string; parts: string[] } | undefined;

/** A long input's parts: sentences, and clauses that a conjunction opens with a question word. */
function untaggedParts(question: string): string[] {
  return question
    .split(/\s*;\s*|[?.!]\s+|,?\s+(?:and|but|while|whereas)\s+(?=(?:what|which|who|when|where|why|how|is|are|does|do|did|can|should)\b)/i)
    .map((part) => part.trim().replace(/[?!.,]+$/, ''))
    .filter((part) => part !== '');
}

/**
 * What a later part's pronoun most likely points back to: the first noun phrase of the part before it that is not a
 * pronoun ("find which commit introduced a regression" → "commit"), or '' when it has none.
 */
export function referentOf(part: string): string {
  if (part.length > TAGGED_QUESTION_CHARACTERS) return '';
  const phrase = nlp(part).match('#Noun+').not('#Pronoun').not('#Possessive').first().text('normal');
  return phrase.replace(/[^\p{L}\p{N}\s.+#-]/gu, '').trim();
}
