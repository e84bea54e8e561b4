import { TOKEN_BUDGET_CUT_MARKER } from '@sift/api-contracts';
import { countTokens, fitRankedTexts, fitText } from './token-budget';

const marker = TOKEN_BUDGET_CUT_MARKER;
const sentence = (topic: string, index: number) => `The ${topic} crawler visited page number ${index} and stored its cleaned content. `;
const paragraph = (topic: string, sentences: number) => Array.from({ length: sentences }, (_, index) => sentence(topic, index)).join('').trim();

describe('countTokens', () => {
  it('counts by o200k_base', () => {
    expect(countTokens('')).toBe(0);
    expect(countTokens('hello world')).toBe(2);
  });
});

describe('fitText', () => {
  it('returns a text that fits unchanged and uncut', () => {
    const text = paragraph('small', 2);
    expect(fitText(text, 1_000)).toEqual({ text, tokens: countTokens(text), cut: false });
  });

  it('cuts at a sentence boundary, ends with the marker and counts the text it returns', () => {
    const text = paragraph('news', 40);
    const fitted = fitText(text, 100);
    expect(fitted.cut).toBe(true);
    expect(fitted.text.endsWith(marker)).toBe(true);
    expect(fitted.tokens).toBe(countTokens(fitted.text));
    expect(fitted.tokens).toBeLessThanOrEqual(100);
    const kept = fitted.text.slice(0, -marker.length);
    expect(text.startsWith(kept)).toBe(true);
    expect(kept.endsWith('content.')).toBe(true);
    // The longest such prefix: one more sentence would not fit.
    const longer = text.slice(0, kept.length + sentence('news', 0).length).trimEnd() + marker;
    expect(countTokens(longer)).toBeGreaterThan(100);
  });

  it('cuts between words when not even the first sentence fits, never inside one', () => {
    const text = Array.from({ length: 300 }, (_, index) => `word${index}`).join(' ');
    const fitted = fitText(text, 60);
    const kept = fitted.text.slice(0, -marker.length);
    expect(fitted.text.endsWith(marker)).toBe(true);
    expect(fitted.tokens).toBeLessThanOrEqual(60);
    expect(kept.length).toBeGreaterThan(0);
    expect(text.startsWith(kept)).toBe(true);
    expect(text[kept.length]).toBe(' ');
  });

  it('keeps words of a long next sentence rather than leave most of the allowance unused', () => {
    const longSentence = Array.from({ length: 400 }, (_, index) => `item${index}`).join(', ');
    const text = `Short heading. ${longSentence}.`;
    const fitted = fitText(text, 200);
    expect(fitted.tokens).toBeLessThanOrEqual(200);
    expect(fitted.tokens).toBeGreaterThan(100);
    expect(fitted.text.startsWith('Short heading. item0')).toBe(true);
  });

  it('returns the marker alone when no word fits, and nothing when the marker does not', () => {
    const word = 'x'.repeat(400);
    expect(fitText(word, 20)).toEqual({ text: marker.trimStart(), tokens: countTokens(marker.trimStart()), cut: true });
    expect(fitText(word, 3)).toEqual({ text: '', tokens: 0, cut: true });
  });
});

describe('fitRankedTexts', () => {
  it('leaves texts that fit untouched and reports them uncut', () => {
    const results = [['first result.'], ['second result.', 'its raw content.']];
    const fitted = fitRankedTexts(results, 1_000);
    expect(fitted.results).toEqual(results);
    expect(fitted.budget).toEqual({ max_tokens: 1_000, returned_tokens: results.flat().reduce((sum, text) => sum + countTokens(text), 0), cut: false });
  });

  it('fits the whole budget and gives earlier results more', () => {
    const results = Array.from({ length: 5 }, (_, rank) => [paragraph(`rank${rank}`, 60)]);
    const fitted = fitRankedTexts(results, 1_000);
    const kept = fitted.results.map(([text]) => countTokens(text));
    expect(fitted.budget.cut).toBe(true);
    expect(fitted.budget.returned_tokens).toBe(kept.reduce((sum, tokens) => sum + tokens, 0));
    expect(fitted.budget.returned_tokens).toBeLessThanOrEqual(1_000);
    expect(fitted.budget.returned_tokens).toBeGreaterThan(900);
    for (let rank = 1; rank < kept.length; rank += 1) expect(kept[rank]).toBeLessThan(kept[rank - 1]);
    for (const [text] of fitted.results) expect(text.endsWith(marker)).toBe(true);
  });

  it('shares what a short result leaves among the others', () => {
    const short = 'A short first result.';
    const results = [[short], [paragraph('second', 60)], [paragraph('third', 60)]];
    const fitted = fitRankedTexts(results, 600);
    expect(fitted.results[0]).toEqual([short]);
    const [second, third] = [countTokens(fitted.results[1][0]), countTokens(fitted.results[2][0])];
    expect(second).toBeGreaterThan(third);
    expect(countTokens(short) + second + third).toBeGreaterThan(540);
  });

  it('fills a result content first, then its raw content', () => {
    const content = paragraph('chunk', 3);
    const raw = paragraph('page', 100);
    const fitted = fitRankedTexts([[content, raw]], 300);
    expect(fitted.results[0][0]).toBe(content);
    expect(fitted.results[0][1].endsWith(marker)).toBe(true);
    expect(countTokens(fitted.results[0][0]) + countTokens(fitted.results[0][1])).toBeLessThanOrEqual(300);
  });
});
