/** The "quoted phrases" of a query, lower-cased with whitespace collapsed; exact_match requires each of them. */
export function quotedPhrases(query: string): string[] {
  const phrases: string[] = [];
  for (const match of query.matchAll(/["“”]([^"“”]+)["“”]/g)) {
    const phrase = match[1].trim().replace(/\s+/g, ' ').toLowerCase();
    if (phrase) phrases.push(phrase);
  }
  return phrases;
}
