import { segmentWords } from './segment-words';
import { tokenize, tokenizeSegmented } from './tokenize';

describe('segmentWords', () => {
  it('cuts a Chinese sentence into words', () => {
    expect(tokenize(segmentWords('我们正在研究机器学习的新方法。'))).toEqual(['我们', '正在', '研究', '机器', '学习', '的', '新', '方法']);
  });

  it('cuts Japanese into words across kanji, hiragana and katakana', () => {
    expect(tokenize(segmentWords('東京は日本の首都です。'))).toEqual(['東京', 'は', '日本', 'の', '首都', 'です']);
    expect(tokenize(segmentWords('コンピューターサイエンス'))).toEqual(['コンピューター', 'サイエンス']);
  });

  it('cuts a query the way it cuts the sentence that contains it', () => {
    const sentence = new Set(tokenize(segmentWords('我们正在研究机器学习的新方法')));
    for (const word of tokenize(segmentWords('机器学习'))) expect(sentence.has(word)).toBe(true);
    const japanese = new Set(tokenize(segmentWords('機械学習の研究が進んでいる')));
    for (const word of tokenize(segmentWords('機械学習'))) expect(japanese.has(word)).toBe(true);
  });

  it('separates Latin words glued to Chinese ones', () => {
    expect(tokenize(segmentWords('使用Python进行机器学习'))).toEqual(['使用', 'python', '进行', '机器', '学习']);
  });

  it('cuts Thai, which has no spaces between words', () => {
    expect(tokenize(segmentWords('ภาษาไทยง่ายนิดเดียว')).length).toBeGreaterThan(1);
  });

  it('cuts a long run in pieces at punctuation, to the words it has sentence by sentence', () => {
    const sentences = Array.from({ length: 60 }, (_, index) => `第${index}章介绍机器学习的新方法，研究人员改进了模型。`);
    const whole = tokenize(segmentWords(sentences.join('')));
    expect(whole).toEqual(sentences.flatMap((sentence) => tokenize(segmentWords(sentence))));
    expect(whole).toContain('机器');
  });

  it('never cuts a character outside the Basic Multilingual Plane in two', () => {
    const spaced = segmentWords('𠀀'.repeat(300));
    expect(spaced.replace(/\s/g, '')).toBe('𠀀'.repeat(300));
    // With the u flag a surrogate code unit matches only when unpaired.
    expect(/[\uD800-\uDFFF]/u.test(spaced)).toBe(false);
  });

  it('returns text without such scripts unchanged, the same string', () => {
    const english = 'Machine learning, explained: the new methods.';
    expect(segmentWords(english)).toBe(english);
    const korean = '한국어 텍스트입니다';
    expect(segmentWords(korean)).toBe(korean);
  });
});

describe('tokenize', () => {
  it('leaves English words as they were', () => {
    expect(tokenize('The quick-brown FOX, 42 times.')).toEqual(['the', 'quick', 'brown', 'fox', '42', 'times']);
  });

  it('gives the same words for text segmentWords has already cut, without cutting it again', () => {
    const text = 'Sift 支持机器学习 and 東京の検索, “quoted” English.';
    expect(tokenizeSegmented(segmentWords(text))).toEqual(tokenize(text));
    expect(tokenizeSegmented('The quick-brown FOX')).toEqual(tokenize('The quick-brown FOX'));
  });

  it('segments Chinese and Japanese words inside mixed text', () => {
    expect(tokenize('Sift 支持机器学习 and 東京の検索')).toEqual(['sift', '支持', '机器', '学习', 'and', '東京', 'の', '検索']);
  });
});
