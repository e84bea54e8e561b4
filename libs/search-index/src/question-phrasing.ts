/**
 * The way people open a request or a question: "how do I", "show me", "is there a way to". The words carry no
 * topic; most are stop words in the English configuration, but not all ("show", "way", "want") and none in the
 * `simple` configuration pages of unknown language are indexed with, where they would match every such page.
 */
const REQUEST_OPENINGS: readonly RegExp[] = [
  /^(?:please\s+)?(?:can|could|would|will)\s+you\s+(?:please\s+)?(?:tell|show|help|explain\s+to)\s+me\s+(?:how\s+to\s+|how\s+|about\s+)?/,
  /^(?:please\s+)?(?:show|tell|give|teach)\s+me\s+(?:how\s+to\s+|how\s+|about\s+)?/,
  /^(?:please\s+)?help\s+me\s+(?:to\s+)?/,
  /^(?:is|are)\s+there\s+(?:a|any)\s+(?:way|command|option)s?\s+(?:to|for|that)\s+/,
  /^is\s+it\s+possible\s+to\s+/,
  /^what(?:'s|\s+is)\s+the\s+(?:best|right|easiest|simplest|proper|correct|quickest)\s+way\s+to\s+/,
  /^i\s+(?:want|need|would\s+like|'d\s+like|wish)\s+to\s+/,
  /^how\s+(?:do|can|could|should|would|might)\s+(?:i|we|you|one)\s+/,
  /^how\s+to\s+/,
];

/**
 * The query without the request phrasing at the start of each sentence, so only the words about the topic are
 * searched; a query that is nothing but such phrasing is searched as typed.
 */
export function searchTermsOf(query: string): string {
  const sentences = query.split(/(?<=[.?!;])\s+/);
  const stripped = sentences
    .map((sentence) => {
      let rest = sentence.trim();
      for (let changed = true; changed; ) {
        changed = false;
        for (const opening of REQUEST_OPENINGS) {
          const match = opening.exec(rest.toLowerCase());
          if (match && match[0].length < rest.length) {
            rest = rest.slice(match[0].length);
            changed = true;
          }
        }
      }
      return rest;
    })
    .join(' ')
    .trim();
  return stripped || query;
}
