import { TOKEN_BUDGET_CUT_MARKER } from '@sift/api-contracts';
import { countTokens, encodeAhead, fitList, fitRankedTexts, fitReport, fitText, StreamedTextBudget } from './token-budget';

const marker = TOKEN_BUDGET_CUT_MARKER;
const sentence = (topic: string, index: number) => `The ${topic} crawler visited page number ${index} and stored its cleaned content. `;
const paragraph = (topic: string, sentences: number) => Array.from({ length: sentences }, (_, index) => sentence(topic, index)).join('').trim();

describe('countTokens', () => {
  it('counts by o200k_base', () => {
    expect(countTokens('')).toBe(0);
    expect(countTokens('hello world')).toBe(2);
  });

  it("counts a special token's spelling in a page's text as text, instead of refusing the text", () => {
    // o200k_base reads "<|endoftext|>" as seven ordinary tokens ("<", "|", "end", "of", "text", "|", ">").
    expect(countTokens('<|endoftext|>')).toBe(7);
    expect(countTokens('a <|endoftext|> b <|im_start|>')).toBeGreaterThan(countTokens('a  b '));
    const page = `${paragraph('hostile', 30)} <|endoftext|> ${paragraph('hostile', 30)}`;
    const fitted = fitText(page, 50);
    expect(fitted.cut).toBe(true);
    expect(fitted.tokens).toBeLessThanOrEqual(50);
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

  it('keeps whole a text of unusually long tokens that fits, though its first characters hold fewer tokens than most text', () => {
    // 'x' runs are 8 characters a token: 1,000 of them are 125 tokens, under an allowance of 130.
    const long = 'x'.repeat(1_000);
    expect(fitText(long, 130)).toEqual({ text: long, tokens: countTokens(long), cut: false });
    expect(fitRankedTexts([[long]], 130).budget).toEqual({ max_tokens: 130, returned_tokens: countTokens(long), cut: false });
  });

  it('returns the marker alone when no word fits, and nothing when the marker does not', () => {
    const word = 'x'.repeat(400);
    expect(fitText(word, 20)).toEqual({ text: marker.trimStart(), tokens: countTokens(marker.trimStart()), cut: true });
    expect(fitText(word, 3)).toEqual({ text: '', tokens: 0, cut: true });
  });
  it('cuts to fit at a boundary where a longer prefix can hold fewer tokens (runs of dashes in a markdown table)', () => {
    // 32 dashes are one token and 33 are two: the tokens of a prefix do not always grow with it.
    const row = (index: number) => `| option ${index} | ${'-'.repeat(20 + (index % 40))} | the value of option number ${index} |\n`;
    const table = Array.from({ length: 200 }, (_, index) => row(index)).join('');
    for (const allowance of [40, 150, 500, 1_000]) {
      const fitted = fitText(table, allowance);
      const kept = fitted.text.slice(0, -marker.length);
      expect(fitted.cut).toBe(true);
      expect(fitted.tokens).toBe(countTokens(fitted.text));
      expect(fitted.tokens).toBeLessThanOrEqual(allowance);
      // At least half the allowance is used, and the cut falls between words.
      expect(fitted.tokens * 2).toBeGreaterThanOrEqual(allowance);
      expect(table.startsWith(kept)).toBe(true);
      expect(table[kept.length]).toMatch(/[\s|-]/);
    }
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
  it('fits pages of megabytes to the budget, the first result keeping more', () => {
    const page = paragraph('long', 20_000);
    const fitted = fitRankedTexts([[page.slice(0, 600), page], [page.slice(0, 600), page]], 4_000);
    expect(fitted.budget.returned_tokens).toBeLessThanOrEqual(4_000);
    expect(fitted.budget.returned_tokens).toBeGreaterThan(3_500);
    expect(fitted.budget.cut).toBe(true);
    expect(fitted.results[0][1].length).toBeGreaterThan(fitted.results[1][1].length);
  });

  it('fits texts encoded ahead (encodeAhead) exactly as texts it encodes itself, for any budget', () => {
    const pages = [paragraph('ahead-first', 400), paragraph('ahead-second', 30), `${'-'.repeat(40)} | ${paragraph('ahead-table', 200)}`];
    const results = pages.map((page) => [page.slice(0, 300), page]);
    const budgets = [500, 2_000, 2_000, 4_000];
    const expected = budgets.map((budget) => fitRankedTexts(results, budget));
    for (const page of pages) encodeAhead(page, 2_000);
    // The 2,000-token fits take up the tokens encoded ahead, twice: a fit leaves them as it found them.
    expect(budgets.map((budget) => fitRankedTexts(results, budget))).toEqual(expected);
  });
});

describe('fitReport', () => {
  it('fits a markdown report as one text', () => {
    const report = paragraph('report', 40);
    const fitted = fitReport(report, 80);
    expect(fitted.content.endsWith(marker)).toBe(true);
    expect(fitted.budget).toEqual({ max_tokens: 80, returned_tokens: countTokens(fitted.content), cut: true });
    expect(fitReport('A short report.', 80)).toEqual({ content: 'A short report.', budget: { max_tokens: 80, returned_tokens: 4, cut: false } });
  });

  it("fits a structured report's string values in order, keeping its shape and its other values", () => {
    const report = { summary: paragraph('summary', 30), facts: [paragraph('fact', 30), 'last'], year: 2005, nested: { note: 'n' }, empty: null };
    const fitted = fitReport(report, 120);
    expect(Object.keys(fitted.content)).toEqual(Object.keys(report));
    expect(fitted.content.year).toBe(2005);
    expect(fitted.content.empty).toBeNull();
    expect(fitted.content.summary.endsWith(marker)).toBe(true);
    expect(report.summary.startsWith(fitted.content.summary.slice(0, -marker.length))).toBe(true);
    const texts = [fitted.content.summary, ...fitted.content.facts, fitted.content.nested.note];
    expect(fitted.budget.returned_tokens).toBe(texts.reduce((sum, text) => sum + countTokens(text), 0));
    expect(fitted.budget.returned_tokens).toBeLessThanOrEqual(120);
    // The first value takes the budget: the next long one is left empty (not even the marker fits), a short one may fit.
    expect(fitted.content.facts[0]).toBe('');
  });
});

describe('StreamedTextBudget', () => {
  it('passes pieces whole while they fit, cuts the one that overflows with the marker, then passes nothing', () => {
    const budget = new StreamedTextBudget(60);
    const pieces = Array.from({ length: 20 }, (_, index) => sentence('stream', index));
    const sent = pieces.map((piece) => budget.take(piece));
    const cutAt = sent.findIndex((piece, index) => piece !== pieces[index]);
    expect(cutAt).toBeGreaterThan(0);
    expect(sent.slice(0, cutAt)).toEqual(pieces.slice(0, cutAt));
    expect(sent[cutAt].endsWith(marker)).toBe(true);
    expect(sent.slice(cutAt + 1).every((piece) => piece === '')).toBe(true);
    expect(countTokens(sent.join(''))).toBeLessThanOrEqual(60);
  });

  it('passes a whole report that fits', () => {
    const budget = new StreamedTextBudget(1_000);
    expect(['Short ', 'report.'].map((piece) => budget.take(piece)).join('')).toBe('Short report.');
  });
});

describe('fitList', () => {
  it('keeps the leading items that fit whole, in order, and counts them', () => {
    const urls = Array.from({ length: 50 }, (_, index) => `https://docs.example.org/section/page-${index}.html`);
    const fitted = fitList(urls, 100);
    expect(fitted.items).toEqual(urls.slice(0, fitted.items.length));
    expect(fitted.budget).toEqual({ max_tokens: 100, returned_tokens: fitted.items.reduce((sum, url) => sum + countTokens(url), 0), cut: true });
    expect(fitted.budget.returned_tokens + countTokens(urls[fitted.items.length])).toBeGreaterThan(100);
    expect(fitList(urls.slice(0, 2), 100)).toEqual({ items: urls.slice(0, 2), budget: { max_tokens: 100, returned_tokens: countTokens(urls[0]) + countTokens(urls[1]), cut: false } });
  });
});
