import { countWords, tokenizeSegmented } from './tokenize';

const WORD_CHARACTER = /^[\p{L}\p{N}\p{M}]$/u;

describe('countWords', () => {
  it('counts the words tokenizeSegmented makes of mixed scripts, marks, digits and punctuation', () => {
    const texts = [
      '',
      '  ,;  ',
      'git-config(1): user.email, core.autocrlf=true',
      'ΣΊΣΥΦΟΣ and İstanbul: ÇAĞRI, straße, ǅemal',
      'नमस्ते दुनिया — مرحبا بالعالم',
      '我们 研究 机器 学习 ２０２６年',
      'Ⓐ circled Ⅻ numerals ① and emoji 👍🏽 between\u00a0words\u2003here',
      'lone \ud800 surrogate \udfff halves, a high one at the end \ud835',
      'astral: 𝐀𝐁 bold, 𠀀𠀁 ideographs, 𝟘 digit, 🀄 tile, a\u{1d167}b with a mark',
    ];
    for (const text of texts) expect(countWords(text)).toBe(tokenizeSegmented(text).length);
  });

  it('agrees with tokenizeSegmented for every UTF-16 code unit between two letters', () => {
    const differing: string[] = [];
    for (let unit = 0; unit <= 0xffff; unit += 1) {
      const text = `a${String.fromCharCode(unit)}b`;
      if (countWords(text) !== tokenizeSegmented(text).length) differing.push(unit.toString(16));
    }
    expect(differing).toEqual([]);
  });

  it('agrees with tokenizeSegmented on random mixtures of code points from every plane', () => {
    let seed = 7;
    const random = (below: number): number => {
      seed = (seed * 48_271) % 2_147_483_647;
      return seed % below;
    };
    const samples = [0x20, 0x2c, 0x41, 0x61, 0x30, 0x300, 0x5d0, 0x900, 0x94d, 0x4e00, 0xd800, 0xdc00, 0x1d400, 0x1f600, 0x20000, 0xe0100];
    for (let text = 0; text < 2_000; text += 1) {
      let value = '';
      for (let length = random(12); length > 0; length -= 1) {
        const base = samples[random(samples.length)];
        const codePoint = base + random(16);
        value += codePoint >= 0xd800 && codePoint <= 0xdfff ? String.fromCharCode(codePoint) : String.fromCodePoint(codePoint);
      }
      expect(countWords(value)).toBe(tokenizeSegmented(value).length);
    }
  });

  it('gives the same count when called again on another text (no state left between calls)', () => {
    expect(countWords('one two three')).toBe(3);
    expect(countWords('four')).toBe(1);
  });

  it('rests on lower-casing keeping every code point a word character or not one', () => {
    const changed: string[] = [];
    for (let codePoint = 0; codePoint <= 0x10ffff; codePoint += 1) {
      if (codePoint >= 0xd800 && codePoint <= 0xdfff) continue;
      const character = String.fromCodePoint(codePoint);
      const isWord = WORD_CHARACTER.test(character);
      if ([...character.toLowerCase()].some((lower) => WORD_CHARACTER.test(lower) !== isWord)) changed.push(codePoint.toString(16));
    }
    expect(changed).toEqual([]);
  });
});
