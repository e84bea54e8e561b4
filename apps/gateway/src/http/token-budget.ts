import { TOKEN_BUDGET_CUT_MARKER, TokenBudgetDto } from '@sift/api-contracts';
import { decode, encode } from 'gpt-tokenizer/encoding/o200k_base';

// o200k_base is the encoding of OpenAI's current models; its ranks ship inside the package, so nothing is fetched. The
// tables live as long as the gateway and every full garbage collection walks them: the package keeps them compact.

/**
 * A page's own text may hold a special token's spelling ("<|endoftext|>"): it is text here, counted as the characters
 * it is, never a reason to throw (the tokenizer's default refuses it).
 */
const AS_TEXT = { disallowedSpecial: new Set<string>() };
const tokensOf = (text: string): number[] => encode(text, AS_TEXT);
const sentences = new Intl.Segmenter('und', { granularity: 'sentence' });
const words = new Intl.Segmenter('und', { granularity: 'word' });
const REACH_SLACK_CHARACTERS = 64;
/**
 * More characters than a token of text ever holds but in pathological runs (English averages about 4): a text longer
 * than its allowance times this cannot fit, so only that much of it is encoded. The tokenizer runs on the event loop,
 * and a budget must not cost the time of encoding a whole page of megabytes (seconds), only of what a budget can keep.
 * In a pathological text (long runs of one character) this keeps less than the budget would allow, never more.
 */
const MAX_CHARACTERS_PER_TOKEN = 16;
/**
 * Characters a token holds in most text (English about 4, code and markdown fewer): a prefix of allowance × this many
 * characters already holds more than the allowance, so a text that cannot fit is told by encoding that much of it, and
 * only a text of unusually long tokens is encoded up to MAX_CHARACTERS_PER_TOKEN.
 */
const TYPICAL_CHARACTERS_PER_TOKEN = 6;

/** The first allowance × `perToken` characters of `text` (and a little slack), or all of it. */
function prefixFor(text: string, allowance: number, perToken: number): string {
  const limit = allowance * perToken + REACH_SLACK_CHARACTERS;
  return text.length > limit ? text.slice(0, limit) : text;
}

/**
 * The tokens of the part of `text` a budget of `allowance` tokens could keep: all of it, or a prefix holding more than
 * `allowance` tokens, or (for a text of unusually long tokens) its first allowance × MAX_CHARACTERS_PER_TOKEN characters.
 */
function leadingTokens(text: string, allowance: number): { part: string; tokens: number[] } {
  let part = prefixFor(text, allowance, TYPICAL_CHARACTERS_PER_TOKEN);
  let tokens = part.length === 0 ? [] : tokensOf(part);
  if (tokens.length <= allowance && part.length < text.length) {
    part = prefixFor(text, allowance, MAX_CHARACTERS_PER_TOKEN);
    tokens = tokensOf(part);
  }
  return { part, tokens };
}

/** Tokens of `text`, counted up to `cap`: past it the answer is only "more than cap" (cap + 1). */
function countTokensUpTo(text: string, cap: number): number {
  const { part, tokens } = leadingTokens(text, cap);
  return part.length < text.length ? Math.max(tokens.length, cap + 1) : tokens.length;
}

/** Tokens of `text` by the tokenizer `max_tokens` is counted in. */
export function countTokens(text: string): number {
  // A token holds at least one byte: an empty string needs no encoding.
  return text.length === 0 ? 0 : tokensOf(text).length;
}

/** Text fitted to an allowance: what is returned and its tokens. */
export interface FittedText {
  text: string;
  tokens: number;
  cut: boolean;
}

/**
 * `text` itself when it fits `allowance` tokens; otherwise its longest prefix that fits with the marker appended,
 * ending at a sentence boundary, or at a word boundary inside the next sentence when whole sentences would fill less
 * than half the allowance; the marker alone when no word fits, nothing when not even the marker does. Never cut
 * inside a word. The count is of the returned text as one string, marker included. `mustCut`: cut even a text that
 * fits (a piece of a stream the marker must still follow).
 */
export function fitText(text: string, allowance: number, mustCut = false): FittedText {
  const { part, tokens } = leadingTokens(text, allowance);
  if (!mustCut && part.length === text.length && tokens.length <= allowance) return { text, tokens: tokens.length, cut: false };
  // No prefix much longer than the text of the first `allowance` tokens can fit: probes stay within it, so a long page
  // is encoded once, not again for every probe. The slack covers a token split inside a character.
  const reach = decode(tokens.slice(0, allowance)).length + REACH_SLACK_CHARACTERS;
  const ends = boundariesBefore(text, 0, reach, sentences);
  const bySentence = longestFitting(text, ends, 0, allowance);
  // Half the allowance left unused is worth words of the next sentence (a long paragraph, a list without stops).
  if (bySentence && bySentence.tokens * 2 >= allowance) return { text: bySentence.text, tokens: bySentence.tokens, cut: true };
  const start = bySentence ? bySentence.end : 0;
  const next = ends.find((end) => end > start) ?? reach;
  const wordEnds = boundariesBefore(text, start, next, words);
  const byWord = longestFitting(text, wordEnds, start, allowance) ?? bySentence;
  if (byWord) return { text: byWord.text, tokens: byWord.tokens, cut: true };
  const marker = TOKEN_BUDGET_CUT_MARKER.trimStart();
  const markerTokens = countTokens(marker);
  return markerTokens <= allowance ? { text: marker, tokens: markerTokens, cut: true } : { text: '', tokens: 0, cut: true };
}

/**
 * Fits the texts of ranked results (each result's texts in the order they are shown) to `maxTokens` in all. A result
 * needing no more than its share keeps everything, and what it leaves is shared again; the rest are cut to their
 * shares, which fall with rank (weights 1, 1/2, 1/3, …), so earlier results keep more.
 */
export function fitRankedTexts(results: ReadonlyArray<ReadonlyArray<string>>, maxTokens: number): { results: string[][]; budget: TokenBudgetDto } {
  const needs = results.map((texts) => texts.reduce((sum, text) => sum + countTokensUpTo(text, maxTokens), 0));
  const shares = sharesOf(needs, maxTokens);
  let returned = 0;
  let cut = false;
  const fitted = results.map((texts, rank) => {
    let left = shares[rank];
    return texts.map((text) => {
      const kept = fitText(text, left);
      left -= kept.tokens;
      returned += kept.tokens;
      cut ||= kept.cut;
      return kept.text;
    });
  });
  return { results: fitted, budget: { max_tokens: maxTokens, returned_tokens: returned, cut } };
}

function sharesOf(needs: number[], budget: number): number[] {
  const weight = (rank: number) => 1 / (rank + 1);
  const shares = needs.map(() => 0);
  let open = needs.map((_, rank) => rank);
  let left = budget;
  while (open.length > 0) {
    const totalWeight = open.reduce((sum, rank) => sum + weight(rank), 0);
    const shareOf = (rank: number) => (left * weight(rank)) / totalWeight;
    const satisfied = open.filter((rank) => needs[rank] <= shareOf(rank));
    if (satisfied.length === 0) {
      for (const rank of open) shares[rank] = Math.floor(shareOf(rank));
      break;
    }
    for (const rank of satisfied) {
      shares[rank] = needs[rank];
      left -= needs[rank];
    }
    open = open.filter((rank) => !satisfied.includes(rank));
  }
  return shares;
}

/**
 * The offsets, in order, where the segments of `text` between `from` and `to` end; the end of that stretch only when
 * it is the end of the text, as cutting the text there could split a word.
 */
function boundariesBefore(text: string, from: number, to: number, segmenter: Intl.Segmenter): number[] {
  const stretch = text.slice(from, to);
  const ends = [...segmenter.segment(stretch)].map(({ index, segment }) => from + index + segment.length);
  return from + stretch.length < text.length ? ends.filter((end) => end < from + stretch.length) : ends;
}

/** The longest prefix ending at one of `ends` (past `after`) that fits with the marker, by binary search on its length. */
function longestFitting(text: string, ends: number[], after: number, allowance: number): (FittedText & { end: number }) | undefined {
  const candidateOf = (end: number) => {
    const kept = text.slice(0, end).trimEnd();
    const cutText = kept.length === 0 ? '' : kept + TOKEN_BUDGET_CUT_MARKER;
    return { text: cutText, tokens: countTokens(cutText), cut: true, end };
  };
  let low = 0;
  let high = ends.length - 1;
  let best: (FittedText & { end: number }) | undefined;
  while (low <= high) {
    const middle = Math.floor((low + high) / 2);
    const candidate = candidateOf(ends[middle]);
    if (candidate.text.length > 0 && candidate.tokens <= allowance) {
      if (ends[middle] > after) best = candidate;
      low = middle + 1;
    } else {
      high = middle - 1;
    }
  }
  return best;
}

/**
 * A research report fitted to `maxTokens`: a markdown report as one text; a report shaped by output_schema by its
 * string values, depth first in the object's order, earlier ones filled first (the object's shape and its other values
 * are kept).
 */
export function fitReport<Content extends string | Record<string, unknown>>(content: Content, maxTokens: number): { content: Content; budget: TokenBudgetDto } {
  if (typeof content === 'string') {
    const kept = fitText(content, maxTokens);
    return { content: kept.text as Content, budget: { max_tokens: maxTokens, returned_tokens: kept.tokens, cut: kept.cut } };
  }
  const texts: string[] = [];
  const collect = (value: unknown): void => {
    if (typeof value === 'string') texts.push(value);
    else if (Array.isArray(value)) value.forEach(collect);
    else if (value !== null && typeof value === 'object') Object.values(value).forEach(collect);
  };
  collect(content);
  const fitted = fitRankedTexts([texts], maxTokens);
  let next = 0;
  const rebuild = (value: unknown): unknown => {
    if (typeof value === 'string') return fitted.results[0][next++];
    if (Array.isArray(value)) return value.map(rebuild);
    if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, rebuild(inner)]));
    return value;
  };
  return { content: rebuild(content) as Content, budget: fitted.budget };
}

/**
 * A budget for text sent in pieces (a streamed report): each piece is counted on its own, and a piece is sent whole
 * while the marker still fits after it; the piece after which it would not is cut with the marker (even when that
 * piece alone would fit: no later piece could carry the marker) and ends the text.
 */
export class StreamedTextBudget {
  private used = 0;
  private ended = false;
  private readonly markerTokens = countTokens(TOKEN_BUDGET_CUT_MARKER);

  constructor(readonly maxTokens: number) {}

  /** What of `piece` to send: all of it, its part that fits with the marker, or nothing once the budget has ended. */
  take(piece: string): string {
    if (this.ended || piece.length === 0) return '';
    const left = this.maxTokens - this.used;
    const tokens = countTokensUpTo(piece, left);
    if (tokens + this.markerTokens <= left) {
      this.used += tokens;
      return piece;
    }
    const kept = fitText(piece, left, true);
    this.used += kept.tokens;
    this.ended = true;
    return kept.text;
  }
}

/**
 * The leading items of a list (a map's URLs) that fit `maxTokens`, each counted on its own: an item is kept whole or
 * left out, and so is everything after the first left out, so the order stays the one found.
 */
export function fitList(items: readonly string[], maxTokens: number): { items: string[]; budget: TokenBudgetDto } {
  let returned = 0;
  let kept = 0;
  for (const item of items) {
    const tokens = countTokensUpTo(item, maxTokens);
    if (returned + tokens > maxTokens) break;
    returned += tokens;
    kept += 1;
  }
  return { items: items.slice(0, kept), budget: { max_tokens: maxTokens, returned_tokens: returned, cut: kept < items.length } };
}
