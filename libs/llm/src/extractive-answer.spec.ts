import { answerQuestion } from './answer-question';
import { describeFromText, describeImages } from './describe-images';
import { extractiveAnswer } from './extractive-answer';

const chunks = [
  {
    url: 'https://physics.example/light',
    title: 'Speed of light',
    content: 'The speed of light in vacuum is exactly 299,792,458 metres per second. It is denoted c. Light takes about eight minutes to reach Earth from the Sun.',
  },
  {
    url: 'https://history.example/romer',
    title: 'Rømer',
    content: 'In 1676 Ole Rømer made the first quantitative estimate of the speed of light. He observed the moons of Jupiter.',
  },
  {
    url: 'https://physics.example/light',
    title: 'Speed of light',
    content: 'The speed of light in vacuum is exactly 299,792,458 metres per second, by definition of the metre.',
  },
];

describe('extractive answers (no model configured)', () => {
  it('quotes the best-supported sentences with their source numbers', async () => {
    const answer = await answerQuestion('what is the speed of light in vacuum', chunks, 'basic');
    expect(answer.mode).toBe('extractive');
    expect(answer.sources.map((source) => source.url)).toEqual(['https://physics.example/light', 'https://history.example/romer']);
    expect(answer.answer.startsWith('The speed of light in vacuum is exactly 299,792,458 metres per second. [1]')).toBe(true);
    // The near-identical sentence of the third chunk is not repeated.
    expect(answer.answer.match(/299,792,458/g)).toHaveLength(1);
  });

  it('gives more sentences at advanced depth', () => {
    const basic = extractiveAnswer('light', chunks, 'basic').answer;
    const advanced = extractiveAnswer('light', chunks, 'advanced').answer;
    expect(basic.match(/\[\d\]/g)).toHaveLength(2);
    expect(advanced.match(/\[\d\]/g)).toHaveLength(3);
    expect(advanced).toContain('Ole Rømer made the first quantitative estimate of the speed of light. [2]');
  });

  it('answers in the sources\' words when a word of the question is in none of them', () => {
    const bridge = [{ url: 'https://bay.example/bridge', title: 'Bay bridge', content: 'The Kestrel bridge spans 840 metres across the bay. It opened in 1998 after four years of work.' }];
    expect(extractiveAnswer('How long is the Kestrel bridge?', bridge, 'basic').answer).toContain('The Kestrel bridge spans 840 metres across the bay. [1]');
  });

  it('answers nothing rather than something unsupported', () => {
    expect(extractiveAnswer('volcanic eruptions in Iceland', chunks, 'basic').answer).toBe('');
  });
});

describe('image descriptions without a model', () => {
  it('come from alt text and captions, else the page title', async () => {
    expect(describeFromText({ url: 'a', alt: 'A red fox', caption: 'a red fox' })).toBe('A red fox');
    expect(describeFromText({ url: 'a', alt: 'A red fox', caption: 'Seen in Norway' })).toBe('A red fox — Seen in Norway');
    expect(describeFromText({ url: 'a', pageTitle: 'Foxes' })).toBe('Image from “Foxes”');
    expect(await describeImages([{ url: 'a', alt: 'Fox' }], 'fox')).toEqual({ mode: 'extractive', descriptions: [{ url: 'a', description: 'Fox' }] });
  });
});
