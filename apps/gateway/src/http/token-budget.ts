import { TOKEN_BUDGET_CUT_MARKER, TokenBudgetDto } from '@sift/api-contracts';
import { decode, encode, encodeGenerator } from 'gpt-tokenizer/encoding/o200k_base';

// o200k_base is the encoding of OpenAI's current models; its ranks ship inside the package, so nothing is fetched. The
// tables live as long as the gateway and every full garbage collection walks them: the package keeps them compact.

/**
 * A page's own text may hold a special token's spelling ("<|endoftext|>"): it is text here, counted as the characters
 * it is, never a reason to throw (the tokenizer's default refuses it).
 */
const AS_TEXT = { disallowedSpecial: new Set<string>() };
const sentences = new Intl.Segmenter('und', { granularity: 'sentence' });
const words = new Intl.Segmenter('und', { granularity: 'word' });
const REACH_SLACK_CHARACTERS = 64;
/**
 * More characters than a token of text ever holds but in pathological runs (English averages about 4): a text longer
 * than its allowance times this cannot fit, so only that much of it is ever encoded. The tokenizer runs on the event
 * loop, and a budget must not cost the time of encoding a whole page of megabytes (seconds), only of what a budget can
 * keep. In a pathological text (long runs of one character) this keeps less than the budget would allow, never more.
 */
const MAX_CHARACTERS_PER_TOKEN = 16;

/**
 * A text's tokens, encoded from its start only as far as a question about it needs: whether it fits an allowance is
 * told by encoding one token past the allowance, not the whole text, and a larger allowance asked later goes on from
 * there. Only its first `longestAllowance` × MAX_CHARACTERS_PER_TOKEN characters are ever encoded.
 */
class TokenizedText {
  readonly tokens: number[] = [];
  /** Every token of the encoded prefix is known. */
  private exhausted = false;
  private readonly pieces: Iterator<number[], unknown>;
  private readonly encodesWholeText: boolean;

  constructor(
    readonly text: string,
    readonly longestAllowance: number,
  ) {
    const limit = longestAllowance * MAX_CHARACTERS_PER_TOKEN + REACH_SLACK_CHARACTERS;
    this.encodesWholeText = text.length <= limit;
    // The tokenizer yields the tokens of one pre-tokenized piece of the text at a time.
    this.pieces = encodeGenerator(this.encodesWholeText ? text : text.slice(0, limit), AS_TEXT);
  }

  /** Tokens of the text when it holds no more than `cap`; otherwise a number above `cap`. */
  countUpTo(cap: number): number {
    while (!this.exhausted && this.tokens.length <= cap) {
      const piece = this.pieces.next();
      if (piece.done) this.exhausted = true;
      else for (const token of piece.value) this.tokens.push(token);
    }
    return this.exhausted && !this.encodesWholeText ? Math.max(this.tokens.length, cap + 1) : this.tokens.length;
  }
}

/** Texts encoded ahead of their budget (encodeAhead), by text, oldest first; at most AHEAD_TEXTS are kept. */
const encodedAhead = new Map<string, TokenizedText>();
const AHEAD_TEXTS = 64;

/**
 * Encodes `text` as far as a budget of `maxTokens` can keep of it, now, while its request is still waiting for other
 * pages: the fit of the answer (fitRankedTexts) then takes up these tokens instead of encoding the text after the
 * wait, on the answer's path. The same tokens either way.
 */
export function encodeAhead(text: string, maxTokens: number): void {
  if (text.length === 0 || encodedAhead.has(text)) return;
  const tokenized = new TokenizedText(text, maxTokens);
  tokenized.countUpTo(maxTokens);
  encodedAhead.set(text, tokenized);
  if (encodedAhead.size > AHEAD_TEXTS) encodedAhead.delete(encodedAhead.keys().next().value as string);
}

/** The text's tokens as encodeAhead left them for the same budget; else a new encoding. */
function tokenizedFor(text: string, maxTokens: number): TokenizedText {
  const ahead = encodedAhead.get(text);
  return ahead?.longestAllowance === maxTokens ? ahead : new TokenizedText(text, maxTokens);
}

/** Tokens of `text` by the tokenizer `max_tokens` is counted in. */
export function countTokens(text: string): number {
  // A token holds at least one byte: an empty string needs no encoding.
  return text.length === 0 ? 0 : encode(text, AS_TEXT).length;
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
  return fitTokenized(new TokenizedText(text, allowance), allowance, mustCut);
}

function fitTokenized(tokenized: TokenizedText, allowance: number, mustCut: boolean): FittedText {
  const { text } = tokenized;
  const count = tokenized.countUpTo(allowance);
  if (!mustCut && count <= allowance) return { text, tokens: count, cut: false };
  // No prefix much longer than the text of the first `allowance` tokens can fit: probes stay within it, so a long page
  // is encoded once, not again for every probe. The slack covers a token split inside a character.
  const firstTokens = decode(tokenized.tokens.slice(0, allowance)).length;
  const reach = firstTokens + REACH_SLACK_CHARACTERS;
  // The longest prefix that fits ends a little before the first `allowance` tokens do, where the marker's room begins.
  const likelyEnd = firstTokens - TOKEN_BUDGET_CUT_MARKER.length;
  const ends = boundariesBefore(text, 0, reach, sentences);
  const bySentence = longestFitting(text, ends, 0, allowance, likelyEnd);
  // Half the allowance left unused is worth words of the next sentence (a long paragraph, a list without stops).
  if (bySentence && bySentence.tokens * 2 >= allowance) return { text: bySentence.text, tokens: bySentence.tokens, cut: true };
  const start = bySentence ? bySentence.end : 0;
  const next = ends.find((end) => end > start) ?? reach;
  const wordEnds = boundariesBefore(text, start, next, words);
  const byWord = longestFitting(text, wordEnds, start, allowance, likelyEnd) ?? bySentence;
  if (byWord) return { text: byWord.text, tokens: byWord.tokens, cut: true };
  const markerTokens = countTokens(CUT_MARKER_ALONE);
  return markerTokens <= allowance ? { text: CUT_MARKER_ALONE, tokens: markerTokens, cut: true } : { text: '', tokens: 0, cut: true };
}

const CUT_MARKER_ALONE = TOKEN_BUDGET_CUT_MARKER.trimStart();

/**
 * Fits the texts of ranked results (each result's texts in the order they are shown) to `maxTokens` in all. A result
 * needing no more than its share keeps everything, and what it leaves is shared again; the rest are cut to their
 * shares, which fall with rank (weights 1, 1/2, 1/3, …), so earlier results keep more.
 */
export function fitRankedTexts(results: ReadonlyArray<ReadonlyArray<string>>, maxTokens: number): { results: string[][]; budget: TokenBudgetDto } {
  const tokenized = results.map((texts) => texts.map((text) => tokenizedFor(text, maxTokens)));
  const shares = sharesOf(tokenized, maxTokens);
  let returned = 0;
  let cut = false;
  const fitted = tokenized.map((texts, rank) => {
    let left = shares[rank];
    return texts.map((text) => {
      const kept = fitTokenized(text, left, false);
      left -= kept.tokens;
      returned += kept.tokens;
      cut ||= kept.cut;
      return kept.text;
    });
  });
  return { results: fitted, budget: { max_tokens: maxTokens, returned_tokens: returned, cut } };
}

/**
 * Each result's share of `budget`. A result's need is counted only as far as its share reaches: a long page is
 * encoded up to the tokens it may keep, not up to the whole budget.
 */
function sharesOf(results: ReadonlyArray<ReadonlyArray<TokenizedText>>, budget: number): number[] {
  /** The tokens of a result's texts when no more than `cap`; otherwise a number above `cap`. */
  const needUpTo = (rank: number, cap: number): number => {
    let need = 0;
    for (const text of results[rank]) {
      if (need > cap) break;
      need += text.countUpTo(cap - need);
    }
    return need;
  };
  const weight = (rank: number) => 1 / (rank + 1);
  const shares = results.map(() => 0);
  let open = results.map((_, rank) => rank);
  let left = budget;
  while (open.length > 0) {
    const totalWeight = open.reduce((sum, rank) => sum + weight(rank), 0);
    const shareOf = (rank: number) => (left * weight(rank)) / totalWeight;
    const satisfied = open.flatMap((rank) => {
      const share = Math.floor(shareOf(rank));
      const need = needUpTo(rank, share);
      return need <= share ? [{ rank, need }] : [];
    });
    if (satisfied.length === 0) {
      for (const rank of open) shares[rank] = Math.floor(shareOf(rank));
      break;
    }
    for (const { rank, need } of satisfied) {
      shares[rank] = need;
      left -= need;
    }
    open = open.filter((rank) => !satisfied.some((entry) => entry.rank === rank));
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

/**
 * The longest prefix ending at one of `ends` (past `after`) that fits with the marker. A longer prefix never has fewer
 * tokens, so the fitting ends come first: the search starts at the last end before `likelyEnd` and widens its steps
 * from there, a probe or two for a text cut where its tokens run out, rather than halving the whole list.
 */
function longestFitting(text: string, ends: number[], after: number, allowance: number, likelyEnd: number): (FittedText & { end: number }) | undefined {
  const probed = new Map<number, FittedText & { end: number }>();
  const fits = (index: number): boolean => {
    const end = ends[index];
    const kept = text.slice(0, end).trimEnd();
    if (kept.length === 0) return false;
    const cutText = kept + TOKEN_BUDGET_CUT_MARKER;
    const tokens = new TokenizedText(cutText, allowance).countUpTo(allowance);
    if (tokens > allowance) return false;
    probed.set(index, { text: cutText, tokens, cut: true, end });
    return true;
  };
  const last = lastWhere(ends.length, Math.max(0, ends.findLastIndex((end) => end <= likelyEnd)), fits);
  return last >= 0 && ends[last] > after ? probed.get(last) : undefined;
}

/**
 * The last index below `count` where `holds` is true, for a predicate true up to some index and false after it (-1
 * when it holds nowhere): steps out from `guess` by 1, 2, 4, … until the answer is bracketed, then halves.
 */
function lastWhere(count: number, guess: number, holds: (index: number) => boolean): number {
  if (count === 0) return -1;
  let low: number;
  let high: number;
  if (holds(guess)) {
    low = guess;
    let step = 1;
    while (low + step < count && holds(low + step)) {
      low += step;
      step *= 2;
    }
    high = Math.min(count, low + step);
  } else {
    high = guess;
    let step = 1;
    while (high - step >= 0 && !holds(high - step)) {
      high -= step;
      step *= 2;
    }
    if (high - step < 0) {
      if (high === 0 || !holds(0)) return -1;
      low = 0;
    } else low = high - step;
  }
  // holds(low) is true and `high` is past the end or false: halve between them.
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (holds(middle)) low = middle;
    else high = middle;
  }
  return low;
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
    const tokens = new TokenizedText(piece, left).countUpTo(left);
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
    const tokens = new TokenizedText(item, maxTokens).countUpTo(maxTokens);
    if (returned + tokens > maxTokens) break;
    returned += tokens;
    kept += 1;
  }
  return { items: items.slice(0, kept), budget: { max_tokens: maxTokens, returned_tokens: returned, cut: kept < items.length } };
}
