/** A stretch of a report followed by the numbered citations that support it. */
export interface CitedClaim {
  text: string;
  /** The citation numbers right after the text: `[1]`, `[1][3]` and `[1, 3]` all count. */
  sources: number[];
}

const citationGroup = /(?:\s*\[\d+(?:\s*,\s*\d+)*\])+/g;

function claimText(raw: string): string {
  return raw
    .replace(/^\s*(?:[-*+]|\d+\.)\s+/, '')
    .replace(/^[\s,;:.]+/, '')
    .trim();
}

/**
 * The cited claims of a numbered-citation report: everything between one citation and the next is the claim the
 * second one supports, so an uncited sentence in between counts against grounding rather than escaping it.
 * Headings are not claims, and a line that starts with a citation label (`[2] Title. url`) is an entry of the
 * source list, not a citation.
 */
export function citedClaimsOf(report: string): CitedClaim[] {
  const claims: CitedClaim[] = [];
  for (const line of report.split('\n')) {
    if (/^\s*#/.test(line) || /^\s*\[\d+\]/.test(line)) continue;
    let consumed = 0;
    for (const group of line.matchAll(citationGroup)) {
      const text = claimText(line.slice(consumed, group.index));
      consumed = (group.index ?? 0) + group[0].length;
      if (!text) continue;
      claims.push({ text, sources: [...group[0].matchAll(/\d+/g)].map((number) => Number(number[0])) });
    }
  }
  return claims;
}
