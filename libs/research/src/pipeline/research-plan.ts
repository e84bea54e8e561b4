import { tokenize } from '@sift/ranking';
import { questionParts, referentOf } from './question-parts';

/** A part of the report: its own section, researched with its own searches (pro: a subtopic). */
export interface ResearchSection {
  title: string;
  queries: string[];
}

export type ResearchModel = 'mini' | 'pro';

/** Most searches a plan asks for: mini looks at a few targeted questions, pro at several angles. */
export const MAXIMUM_QUERIES: Record<ResearchModel, number> = { mini: 4, pro: 10 };

const STOPWORDS = new Set(
  (
    'a an the of in on at to for from by with about into over under between among and or but nor so yet if then than as ' +
    'is are was were be been being am do does did doing have has had having can could should would will shall may might must ' +
    'what which who whom whose when where why how whether this that these those it its it’s they them their there here ' +
    'i me my we our you your he she his her us not no yes also just only very more most much many some any all each every ' +
    'tell explain describe give list show please know want need like use using used make work works compare compared comparison versus vs'
  ).split(' '),
);
// Asks for several angles at once: a comparison, a history, a weighing of sides.
const BROAD_QUESTION =
  /\b(?:compare[sd]?|comparison|comparing|versus|vs\.?|pros and cons|advantages and disadvantages|differ(?:s|ent|ences?)?|history of|evolution of|trade-?offs?|overview of)\b/i;
// The two things a comparison weighs: "between X and Y", "how do X and Y differ", "X vs Y".
const COMPARED_PAIRS = [
  /\bbetween\s+(.+?)\s+and\s+(.+?)(?=\s+(?:in|for|when|with|regarding|on|at)\b|[,;:?]|$)/i,
  /\b(?:do|does|did|is|are|would|should)\s+(.+?)\s+(?:and|or)\s+(.+?)\s+(?:differ|compare|vary)\b/i,
  /\b(?:compare|comparing)\s+(.+?)\s+(?:and|with|to)\s+(.+?)(?=\s+(?:in|for|when|regarding|on|at)\b|[,;:?]|$)/i,
  /\b(?:use|choose|pick|prefer|run)\s+(.+?)\s+or\s+(.+?)(?=\s+(?:to|for|when|in|if|on)\b|[,;:?]|$)/i,
];
/** Words that say a comparison is asked for, not what it is about. */
const COMPARISON_WORDS = new Set(['differ', 'differs', 'different', 'difference', 'differences', 'pros', 'cons']);
const POINTS_BACK = /\b(?:it|its|they|them|their|this|that|these|those)\b/i;
const COMPARISON_SPLIT = /\s+(?:versus|vs\.?|compared (?:to|with)|or)\s+/i;

function normalizeQuestion(input: string): string {
  return input.replace(/\s+/g, ' ').trim().replace(/[?!.]+$/, '');
}

/** The words that carry a text's meaning, in order: stopwords and punctuation removed. */
export function keywordsOf(text: string): string[] {
  return tokenize(text).filter((token) => !STOPWORDS.has(token));
}

/** The parts of a compound question (questionParts) that name something to search for. */
export function clausesOf(question: string): string[] {
  return questionParts(question).filter((clause) => keywordsOf(clause).length > 0);
}

/** The items of an enumeration ("Git, Mercurial and Subversion"), each with the words around the list as context. */
export function enumerationItemsOf(clause: string): string[] {
  const segments = clause.split(/\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+(?=[^,]*$)/i).filter((segment) => segment.trim() !== '');
  if (segments.length < 3 || !clause.includes(',')) return [];
  const middle = segments.slice(1, -1);
  const width = Math.max(...middle.map((segment) => segment.split(' ').length));
  if (width > 4) return [];
  const firstWords = segments[0].split(' ');
  const lastWords = segments[segments.length - 1].split(' ');
  const items = [firstWords.slice(-width).join(' '), ...middle, lastWords.slice(0, width).join(' ')];
  const context = keywordsOf([...firstWords.slice(0, -width), ...lastWords.slice(width)].join(' '));
  return items.map((item) => [...keywordsOf(item), ...context].join(' ')).filter((query) => query !== '');
}

/** Names in a question: runs of capitalised words (not the question's first word), quoted phrases, technical tokens. */
export function entitiesOf(question: string): string[] {
  const quoted = [...question.matchAll(/["“']([^"”']{3,60})["”']/g)].map((match) => match[1]);
  const words = question.split(/\s+/);
  const names: string[] = [];
  let run: string[] = [];
  words.forEach((raw, position) => {
    const word = raw.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}+#]+$/gu, '');
    const isName = position > 0 && /^\p{Lu}/u.test(word) && !STOPWORDS.has(word.toLowerCase());
    const isTechnical = /[\p{L}][-./_][\p{L}\p{N}]|\p{L}\d|\d\p{L}/u.test(word) && word.length > 2;
    if (isName || isTechnical) run.push(word);
    if (!(isName || isTechnical) || /[,;:]$/.test(raw)) {
      if (run.length > 0) names.push(run.join(' '));
      run = [];
    }
  });
  if (run.length > 0) names.push(run.join(' '));
  return [...quoted, ...names];
}

/**
 * The sides a comparison weighs, each a search with the question's other terms: "How do git rebase and git merge
 * differ in how they integrate changes" → "git rebase integrate changes", "git merge integrate changes".
 */
export function comparedSidesOf(question: string): string[] {
  // An enumeration of three or more ("Git, Mercurial and Subversion") is searched item by item instead.
  if (clausesOf(question).some((clause) => enumerationItemsOf(clause).length > 0)) return [];
  // Both sides must name something: "is git rebase and how does it differ" pairs a thing with a pronoun.
  const pair = COMPARED_PAIRS.map((pattern) => pattern.exec(question)).find((match) => match !== null && keywordsOf(match[1]).length > 0 && keywordsOf(match[2]).length > 0);
  const sides = pair ? [pair[1], pair[2]] : BROAD_QUESTION.test(question) ? question.split(COMPARISON_SPLIT).filter((side) => side !== question) : [];
  const sideWords = new Set(sides.flatMap(keywordsOf));
  const context = keywordsOf(question).filter((word) => !sideWords.has(word) && !COMPARISON_WORDS.has(word));
  return sides.map((side) => [...keywordsOf(side), ...context].join(' ')).filter((query) => query !== '');
}

/** mini or pro for `auto`: broad, long or many-part questions get several angles. */
export function resolveModel(model: 'mini' | 'pro' | 'auto', input: string): ResearchModel {
  if (model !== 'auto') return model;
  const question = normalizeQuestion(input);
  const parts = clausesOf(question).length + enumerationItemsOf(question).length;
  const broad = BROAD_QUESTION.test(question) || question.split(' ').length > 20 || parts >= 3 || entitiesOf(question).length >= 3;
  return broad ? 'pro' : 'mini';
}

/** Keeps the first of queries that ask for the same words. */
function distinct(queries: string[]): string[] {
  const seen = new Set<string>();
  return queries.filter((query) => {
    const key = [...new Set(keywordsOf(query))].sort().join(' ');
    if (key === '' || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * The plan without a model: the question itself, its clauses, the items it enumerates and the names it
 * mentions, each a search. mini: one section per search; pro: subtopics, each searched from two angles
 * (the subtopic alone and within the question's terms).
 */
export function deterministicPlan(input: string, model: ResearchModel): ResearchSection[] {
  const question = normalizeQuestion(input);
  const clauses = clausesOf(question);
  const entities = entitiesOf(question);
  // "who maintains it today", "and then undo it": a clause that points back needs what it points to: the names the
  // question mentions, else the first thing the clause before it names.
  const subjectBefore = (position: number) => entities.join(' ') || referentOf(clauses[position - 1]) || keywordsOf(clauses[0]).join(' ');
  const parts =
    clauses.length > 1
      ? clauses.map((clause, position) => (position > 0 && POINTS_BACK.test(clause) && keywordsOf(clause).length < 3 ? `${clause} ${subjectBefore(position)}` : clause))
      : [];
  const items = clauses.flatMap(enumerationItemsOf);
  const keywords = keywordsOf(question).join(' ');
  const sides = comparedSidesOf(question);
  if (model === 'mini') {
    const queries = distinct([question, ...sides, ...parts, ...items, ...entities.map((entity) => `${entity} ${keywords}`), keywords]).slice(0, MAXIMUM_QUERIES.mini);
    return queries.map((query, position) => ({ title: position === 0 ? 'Overview' : capitalized(query), queries: [query] }));
  }
  const topics = distinct([...sides, ...parts, ...items, ...entities]);
  const sections: ResearchSection[] = [{ title: 'Overview', queries: distinct([question, keywords]) }];
  for (const topic of topics) {
    const within = distinct([topic, `${topic} ${keywords}`]).filter((query) => !sections.some((section) => distinct([...section.queries, query]).length === section.queries.length));
    if (within.length > 0) sections.push({ title: capitalized(topic), queries: within });
  }
  // A question with a single angle still gets several: its terms relaxed one at a time, each a search of its own.
  if (sections.length < 3) {
    for (const relaxed of relaxationsOf(keywordsOf(question))) {
      if (!sections.some((section) => distinct([...section.queries, relaxed]).length === section.queries.length)) {
        sections.push({ title: capitalized(relaxed), queries: [relaxed] });
      }
    }
  }
  return capQueries(sections, MAXIMUM_QUERIES.pro);
}

/** The query without one of its terms, for each term from the last: recall for pages that word a question differently. */
function relaxationsOf(keywords: string[]): string[] {
  if (keywords.length < 3) return [];
  return keywords.map((_, dropped) => keywords.filter((__, position) => position !== dropped).join(' ')).reverse();
}

/** At most `maximum` queries, taken round-robin so every section keeps its first query before any gets a second. */
export function capQueries(sections: ResearchSection[], maximum: number): ResearchSection[] {
  const kept = sections.map((section) => ({ title: section.title, queries: [] as string[] }));
  let left = maximum;
  for (let round = 0; left > 0 && sections.some((section) => section.queries.length > round); round += 1) {
    sections.forEach((section, position) => {
      if (left > 0 && section.queries[round] !== undefined) {
        kept[position].queries.push(section.queries[round]);
        left -= 1;
      }
    });
  }
  return kept.filter((section) => section.queries.length > 0);
}
